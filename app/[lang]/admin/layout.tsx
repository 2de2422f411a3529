import { DraftRestorer } from "@/components/admin/draft-restorer";
import { pendingDraft } from "@/lib/http/admin-guard";
import { getLang } from "@/lib/http/request-lang";

// Every back-office page: when a form was refused because its session had ended, and the owner
// has signed in again, the page puts what was typed back into that form (lib/http/admin-draft.ts).
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const [draft, { t }] = await Promise.all([pendingDraft(), getLang()]);
  return (
    <>
      {draft && (
        <DraftRestorer
          draft={{ id: draft.id, action: draft.action, fields: draft.fields }}
          notes={[
            t.admin.draft.restored,
            ...(draft.filesLost ? [t.admin.draft.filesLost] : []),
            ...(draft.textLost ? [t.admin.draft.textLost] : []),
          ]}
        />
      )}
      {children}
    </>
  );
}
