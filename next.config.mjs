/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // pg and Prisma's driver adapter are Node libraries; load them from node_modules at run time.
  serverExternalPackages: ["pg", "@prisma/adapter-pg"],
  images: { unoptimized: true },
  // GET /api/health compares the database's migrations with this build's (lib/health.ts);
  // file tracing cannot see a directory read, so ship it with that function.
  outputFileTracingIncludes: { "/api/health": ["./prisma/migrations/**/*"] },
  // `next dev` serves its own resources (/_next/*, the HMR socket) to pages from localhost and
  // *.localhost only; from any other host a page never hydrates. These are the other names of
  // this machine, as the browser's Origin gives them (IPv6 in brackets). Development only.
  allowedDevOrigins: ["127.0.0.1", "[::1]"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
