import { describe, expect, it } from "vitest";
import { TokenCache, type IssuedToken } from "@/lib/pay/api/token-cache";

/** A fake clock and a token endpoint whose answers the test controls. */
function harness(lifetime?: number) {
  let now = 1_000_000;
  let issued = 0;
  const pending: { resolve: (t: IssuedToken) => void; reject: (e: Error) => void }[] = [];
  let manual = false;
  const cache = new TokenCache({
    now: () => now,
    fetchToken: () => {
      issued++;
      if (manual) return new Promise((resolve, reject) => pending.push({ resolve, reject }));
      return Promise.resolve({ accessToken: `token-${issued}`, expiresInSeconds: lifetime });
    },
  });
  return {
    cache,
    advance: (seconds: number) => (now += seconds * 1000),
    issued: () => issued,
    holdRequests: () => (manual = true),
    pending,
  };
}

describe("TokenCache", () => {
  it("reuses the token until 60 s before it expires, then renews it", async () => {
    const h = harness(3600);
    expect(await h.cache.get()).toBe("token-1");
    h.advance(3600 - 61);
    expect(await h.cache.get()).toBe("token-1");
    h.advance(1);
    expect(await h.cache.get()).toBe("token-2");
    expect(h.issued()).toBe(2);
  });

  it("assumes the requested 3600 s when the response has no expires_in", async () => {
    const h = harness(undefined);
    await h.cache.get();
    h.advance(3539);
    expect(await h.cache.get()).toBe("token-1");
    h.advance(1);
    expect(await h.cache.get()).toBe("token-2");
  });

  it("follows a shorter expires_in, keeping half of a lifetime under two minutes", async () => {
    const h = harness(90);
    await h.cache.get();
    h.advance(44);
    expect(await h.cache.get()).toBe("token-1");
    h.advance(1);
    expect(await h.cache.get()).toBe("token-2");
  });

  it("lets N concurrent callers share one token request", async () => {
    const h = harness(3600);
    h.holdRequests();
    const callers = Array.from({ length: 25 }, () => h.cache.get());
    expect(h.pending).toHaveLength(1);
    h.pending[0]!.resolve({ accessToken: "shared", expiresInSeconds: 3600 });
    expect(new Set(await Promise.all(callers))).toEqual(new Set(["shared"]));
    expect(h.issued()).toBe(1);
  });

  it("forgets a failed request so the next caller tries again", async () => {
    const h = harness(3600);
    h.holdRequests();
    const first = [h.cache.get(), h.cache.get()];
    h.pending[0]!.reject(new Error("service down"));
    await Promise.all(first.map((p) => expect(p).rejects.toThrow("service down")));
    const retry = h.cache.get();
    expect(h.pending).toHaveLength(2);
    h.pending[1]!.resolve({ accessToken: "after-failure" });
    expect(await retry).toBe("after-failure");
  });

  it("drops a refused token, but not a newer one fetched meanwhile", async () => {
    const h = harness(3600);
    const old = await h.cache.get();
    h.cache.invalidate(old);
    const fresh = await h.cache.get();
    expect(fresh).toBe("token-2");
    h.cache.invalidate(old);
    expect(await h.cache.get()).toBe("token-2");
    expect(h.issued()).toBe(2);
  });
});
