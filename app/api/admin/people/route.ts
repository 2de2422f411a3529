import type { NextRequest } from "next/server";
import { addPersonAction } from "@/lib/http/people-actions";

// The "add a person" form of /admin/people, or JSON: 201 with the person (and a password made up, when none was sent).
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return addPersonAction(request);
}
