// The catalogue and product pages for a shopper whose browser sends `Save-Data: on`:
// next.config.mjs rewrites such a request for `/`, `/page/<n>`, `/categories/<slug>` (and its
// pages) or `/products/<slug>` here, by its header alone, so that these pages stay cached (a
// cached page cannot read a header) and the shopper never sees this address. Each page is its
// usual one with `saveData`: cards without pictures, a lighter product gallery, and this mark,
// which tells the browser's links not to prefetch (components/ui/shop-link.tsx).
// docs/data-budget.md#saving-data.
export default function SaveDataLayout({ children }: { children: React.ReactNode }) {
  return (
    <div data-save-data="" className="contents">
      {children}
    </div>
  );
}
