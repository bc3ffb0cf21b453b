-- CreateTable
CREATE TABLE "video_frame_bands" (
    "band" INTEGER NOT NULL,
    "video_id" UUID NOT NULL,

    CONSTRAINT "video_frame_bands_pkey" PRIMARY KEY ("band","video_id")
);

-- AddForeignKey
ALTER TABLE "video_frame_bands" ADD CONSTRAINT "video_frame_bands_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "challenge_videos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (docs/adr/0073). No semicolons in these comments: the migration runner splits
-- statements on them.
-- The bands of a frame_hashes value (docs/adr/0038: five 64-bit dHashes of 16 hex digits, '-' for
-- a left-out frame): band b (0 to 3) of the frame at position p (0 to 4) is the integer
-- (p * 4 + b) * 65536 + its 16-bit value. Must stay equal to frameBands in
-- src/domain/fingerprint.ts. Used where a video becomes ready, and to fill the index below.
CREATE FUNCTION "media_frame_bands"("hashes" TEXT) RETURNS INTEGER[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(((f.pos - 1) * 4 + b.band) * 65536
                              + ('x' || substr(f.hash, b.band * 4 + 1, 4))::bit(16)::integer
                              ORDER BY f.pos, b.band), '{}')
      FROM unnest(string_to_array("hashes", ',')) WITH ORDINALITY AS f(hash, pos)
     CROSS JOIN generate_series(0, 3) AS b(band)
     WHERE f.hash ~ '^[0-9a-f]{16}$'
  $$;

-- The proofs processed before this migration.
INSERT INTO "video_frame_bands" ("band", "video_id")
SELECT DISTINCT bands.band, v."id"
  FROM "challenge_videos" AS v, unnest("media_frame_bands"(v."frame_hashes")) AS bands(band)
 WHERE v."status" = 'ready'
ON CONFLICT DO NOTHING;
