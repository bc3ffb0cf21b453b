-- Written by hand (docs/adr/0074), like 20261123180500_discover_partial_indexes: the Prisma schema
-- cannot express a partial index or INCLUDE columns, so schema.prisma only names it in a comment.
-- No semicolons in these comments: the migration runner splits statements on them.

-- getChallengesByStatus for visitors and users: a status's public challenges in their order,
-- so that a page's ids and the capped total come from the index alone. The type is filtered
-- from the INCLUDE column. The queries (statusPage in src/data/social.ts) must keep implying
-- the predicate.
CREATE INDEX "challenges_public_status_idx" ON "challenges" ("status", "created_at" DESC, "id")
  INCLUDE ("challenge_type")
  WHERE "visibility" = 'public' AND "moderation" IS NULL;
