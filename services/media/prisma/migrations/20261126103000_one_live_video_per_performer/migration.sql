-- Written by hand (docs/adr/0073): the Prisma schema cannot express a partial unique index, so
-- schema.prisma (and the snapshot) only mention it in a comment, and a later schema-to-schema
-- diff never sees, and so never drops, it. No semicolons in these comments: the migration
-- runner splits statements on them.

-- Two uploads that passed the check at the same instant could both become live before this
-- index (ADR 55). Keep one per performer and challenge, the one challenge applied (the first to
-- become ready, else the first uploaded), and fail the others as superseded.
UPDATE "challenge_videos" AS v
   SET "status" = 'failed', "failure_reason" = 'superseded', "processed_at" = CURRENT_TIMESTAMP
  FROM (
    SELECT "id", row_number() OVER (
             PARTITION BY "challenge_id", "uploader_id"
             ORDER BY ("status" = 'ready') DESC, "processed_at" ASC NULLS LAST, "created_at", "id"
           ) AS "rank"
      FROM "challenge_videos"
     WHERE "status" IN ('uploaded', 'processing', 'ready')
  ) AS ranked
 WHERE v."id" = ranked."id" AND ranked."rank" > 1;

-- One live (uploaded, processing or ready) video per performer and challenge: the judge between
-- two uploads that both passed the check made before their bytes. A failed video may be replaced.
CREATE UNIQUE INDEX "challenge_videos_one_live_per_performer"
  ON "challenge_videos" ("challenge_id", "uploader_id")
  WHERE "status" IN ('uploaded', 'processing', 'ready');
