import type { NextRequest } from "next/server";
import { updatePersonAction } from "@/lib/http/people-actions";

// A person's forms on /admin/people, or JSON: any of role, active and password; 200 with the person.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return updatePersonAction(request, id);
}
