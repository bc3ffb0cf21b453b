-- AlterTable
ALTER TABLE "challenge_videos" ADD COLUMN     "content_type" TEXT,
ADD COLUMN     "original_key" TEXT,
ADD COLUMN     "own_video_confirmed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "size_bytes" BIGINT;

-- CreateTable
CREATE TABLE "challenge_access" (
    "challenge_id" UUID NOT NULL,
    "owner_id" UUID,
    "challenged_user_id" UUID,
    "status" TEXT,
    "visibility" TEXT,
    "hidden_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "challenge_access_pkey" PRIMARY KEY ("challenge_id")
);
