-- AlterTable
ALTER TABLE "users" ADD COLUMN     "ban_reason" TEXT;
