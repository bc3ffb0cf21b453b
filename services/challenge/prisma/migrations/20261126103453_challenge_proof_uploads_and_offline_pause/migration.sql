-- AlterTable
ALTER TABLE "challenges" ADD COLUMN     "offline_since" TIMESTAMP(3),
ADD COLUMN     "pending_video_at" TIMESTAMP(3),
ADD COLUMN     "pending_video_id" UUID;

-- AlterTable
ALTER TABLE "challenge_sides" ADD COLUMN     "pending_video_at" TIMESTAMP(3),
ADD COLUMN     "pending_video_id" UUID;
