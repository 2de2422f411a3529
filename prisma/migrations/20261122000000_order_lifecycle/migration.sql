-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "creation_failure" TEXT,
ADD COLUMN     "status_checked_at" TIMESTAMP(3),
ADD COLUMN     "stock_released_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "invoices" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "number" SERIAL NOT NULL,
    "order_id" UUID NOT NULL,
    "amount_aoa" INTEGER NOT NULL,
    "issued_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "emails" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "job_key" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "message_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices"("number");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_order_id_key" ON "invoices"("order_id");

-- CreateIndex
CREATE INDEX "emails_job_key_idx" ON "emails"("job_key");

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------
-- Hand-written (see the init migration for why these live here).
-- ---------------------------------------------------------------------------------------

-- AddCheckConstraint: an invoice always bills something.
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_amount_aoa_check" CHECK ("amount_aoa" > 0);

-- AddCheckConstraint: a final order says when it became final, and only a final order does.
ALTER TABLE "orders" ADD CONSTRAINT "orders_finalized_at_check" CHECK (("status" = 'PEN') = ("finalized_at" IS NULL));
