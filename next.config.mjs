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
