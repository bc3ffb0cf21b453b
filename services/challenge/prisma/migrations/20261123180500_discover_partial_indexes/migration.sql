-- Written by hand (docs/adr/0061): the Prisma schema cannot express partial indexes or INCLUDE
-- columns, so schema.prisma (and the snapshot) only mention them in a comment, and a later
-- schema-to-schema diff never sees, and so never drops, them. No semicolons in these comments:
-- the migration runner splits statements on them.

-- The discover lists (docs/adr/0043): only what a list can show, in its order, so that the ids of a page
-- come from the index alone (no heap visit per skipped row, no filter on status or moderation).
-- The predicate repeats DISCOVER_STATUSES (src/data/social.ts), and the queries must keep implying it.
CREATE INDEX "challenges_discover_idx" ON "challenges" ("created_at" DESC, "id")
  WHERE "visibility" = 'public' AND "moderation" IS NULL
    AND "status" IN ('open', 'accepted', 'review', 'referee', 'completed', 'failed');

CREATE INDEX "challenges_discover_type_idx" ON "challenges" ("challenge_type", "created_at" DESC, "id")
  WHERE "visibility" = 'public' AND "moderation" IS NULL
    AND "status" IN ('open', 'accepted', 'review', 'referee', 'completed', 'failed');

-- The following list and its count: the newest public live challenges.
CREATE INDEX "challenges_discover_owner_idx" ON "challenges" ("owner_id", "created_at" DESC, "id")
  WHERE "visibility" = 'public' AND "moderation" IS NULL
    AND "status" IN ('open', 'accepted', 'review', 'referee', 'completed', 'failed');

-- A profile counts (docs/adr/0045): counted from the index alone, per side.
CREATE INDEX "challenges_owner_status_idx" ON "challenges" ("owner_id", "status")
  INCLUDE ("visibility", "moderation");
CREATE INDEX "challenges_challenged_status_idx" ON "challenges" ("challenged_user_id", "status")
  INCLUDE ("visibility", "moderation", "owner_id");
