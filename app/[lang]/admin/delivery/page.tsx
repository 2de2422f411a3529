import type { Metadata } from "next";
import { DeliveryFlash, deliveryFlashOf, DeliveryZoneForm, PickupPointForm } from "@/components/admin/delivery-forms";
import { requireStaff } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import { listDeliveryMethods } from "@/lib/delivery/zones-admin";
import { getLang } from "@/lib/http/request-lang";
import { formatAoa } from "@/lib/money";

// The back office's delivery methods (lib/delivery/zones.ts): the delivery zones and the pickup points,
// each in a table with a row's edit form (a <details>, no script needed) and the form for a new one.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.deliveryMethods.title, robots: { index: false, follow: false } };
}

const cell = "px-3 py-2 align-top";

export default async function AdminDeliveryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/delivery");
  const [{ t }, query, { zones, pickupPoints }] = await Promise.all([
    getLang(),
    searchParams,
    listDeliveryMethods(db()),
  ]);
  const text = t.admin.deliveryMethods;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <DeliveryFlash t={t} flash={deliveryFlashOf(query)} />
      <p className="text-sm text-stone-600">{text.hint}</p>

      <div id="zones" role="region" aria-labelledby="zones-title" className="flex flex-col gap-3">
        <h2 id="zones-title" className="text-lg font-semibold">
          {text.zonesTitle}
        </h2>
        <p className="text-sm text-stone-600">{text.zonesHint}</p>
        {zones.length === 0 ? (
          <p>{text.noZones}</p>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-stone-200 bg-white">
            <table data-testid="delivery-zones" className="w-full text-left text-sm">
              <thead className="border-b border-stone-200 bg-stone-50">
                <tr>
                  <th scope="col" className={cell}>
                    {text.name}
                  </th>
                  <th scope="col" className={cell}>
                    {text.feeAoa}
                  </th>
                  <th scope="col" className={cell}>
                    {text.freeFromAoa}
                  </th>
                  <th scope="col" className={cell}>
                    {text.estimatedDays}
                  </th>
                  <th scope="col" className={cell}>
                    {text.municipalities}
                  </th>
                  <th scope="col" className={cell}>
                    {text.position}
                  </th>
                  <th scope="col" className={cell}>
                    {text.status}
                  </th>
                  <th scope="col" className={cell}>
                    {text.actions}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {zones.map((zone) => (
                  <tr key={zone.id} data-testid="delivery-zone" data-name={zone.name} data-active={zone.active}>
                    <th scope="row" className={`${cell} font-medium break-words`}>
                      {zone.name}
                    </th>
                    <td className={cell}>{formatAoa(zone.feeAoa)}</td>
                    <td className={cell}>{zone.freeFromAoa === null ? text.never : formatAoa(zone.freeFromAoa)}</td>
                    <td className={cell}>{zone.estimatedDays === null ? text.never : text.days(zone.estimatedDays)}</td>
                    <td className={`${cell} break-words`} data-testid="zone-municipalities">
                      {zone.municipalities.length > 0 ? (
                        zone.municipalities.join(", ")
                      ) : (
                        <span className="text-amber-800">{text.notRestricted}</span>
                      )}
                    </td>
                    <td className={cell}>{zone.position}</td>
                    <td className={cell}>{zone.active ? text.on : text.off}</td>
                    <td className={cell}>
                      <details>
                        <summary className="cursor-pointer underline">{text.edit(zone.name)}</summary>
                        <div className="mt-2 min-w-72">
                          <DeliveryZoneForm t={t} zone={zone} />
                        </div>
                      </details>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div
          role="region"
          aria-labelledby="new-zone-title"
          className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
        >
          <h3 id="new-zone-title" className="font-semibold">
            {text.newZone}
          </h3>
          <DeliveryZoneForm t={t} />
        </div>
      </div>

      <div id="pickup-points" role="region" aria-labelledby="points-title" className="flex flex-col gap-3">
        <h2 id="points-title" className="text-lg font-semibold">
          {text.pointsTitle}
        </h2>
        <p className="text-sm text-stone-600">{text.pointsHint}</p>
        {pickupPoints.length === 0 ? (
          <p>{text.noPoints}</p>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-stone-200 bg-white">
            <table data-testid="pickup-points" className="w-full text-left text-sm">
              <thead className="border-b border-stone-200 bg-stone-50">
                <tr>
                  <th scope="col" className={cell}>
                    {text.name}
                  </th>
                  <th scope="col" className={cell}>
                    {text.address}
                  </th>
                  <th scope="col" className={cell}>
                    {text.hours}
                  </th>
                  <th scope="col" className={cell}>
                    {text.position}
                  </th>
                  <th scope="col" className={cell}>
                    {text.status}
                  </th>
                  <th scope="col" className={cell}>
                    {text.actions}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {pickupPoints.map((point) => (
                  <tr key={point.id} data-testid="pickup-point" data-name={point.name} data-active={point.active}>
                    <th scope="row" className={`${cell} font-medium break-words`}>
                      {point.name}
                    </th>
                    <td className={`${cell} break-words`}>{point.address}</td>
                    <td className={`${cell} break-words`}>{point.hours}</td>
                    <td className={cell}>{point.position}</td>
                    <td className={cell}>{point.active ? text.onPoint : text.offPoint}</td>
                    <td className={cell}>
                      <details>
                        <summary className="cursor-pointer underline">{text.edit(point.name)}</summary>
                        <div className="mt-2 min-w-72">
                          <PickupPointForm t={t} point={point} />
                        </div>
                      </details>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div
          role="region"
          aria-labelledby="new-point-title"
          className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
        >
          <h3 id="new-point-title" className="font-semibold">
            {text.newPoint}
          </h3>
          <PickupPointForm t={t} />
        </div>
      </div>
    </section>
  );
}
