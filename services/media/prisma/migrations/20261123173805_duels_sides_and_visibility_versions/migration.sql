-- AlterTable
ALTER TABLE "challenge_access" ADD COLUMN     "challenge_type" TEXT,
ADD COLUMN     "closed_sides" UUID[] DEFAULT ARRAY[]::UUID[],
ADD COLUMN     "visibility_version" INTEGER;
