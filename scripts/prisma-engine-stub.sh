#!/bin/sh
# Stand-in for Prisma's native schema engine, which the CLI would download from the
# internet. `prisma generate` needs the path to exist but never runs it. See docs/database.md.
echo "prisma-engine-stub: the schema engine is not installed here; migrations are applied by 'npm run db:migrate' (docs/database.md)." >&2
exit 1
