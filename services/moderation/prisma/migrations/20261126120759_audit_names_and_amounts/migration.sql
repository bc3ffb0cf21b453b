-- AlterTable
ALTER TABLE "audit_entries" ADD COLUMN     "amount_cents" BIGINT,
ADD COLUMN     "item_count" INTEGER,
ADD COLUMN     "subject_user_id" UUID;
