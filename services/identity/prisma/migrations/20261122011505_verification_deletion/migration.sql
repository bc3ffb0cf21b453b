-- AlterEnum
ALTER TYPE "UserStatus" ADD VALUE 'deleted';

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "verified_at" TIMESTAMP(3);
