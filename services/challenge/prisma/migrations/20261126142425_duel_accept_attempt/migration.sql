-- AlterTable
ALTER TABLE "challenges" ADD COLUMN     "accept_attempt" UUID,
ADD COLUMN     "accept_attempt_at" TIMESTAMP(3);
