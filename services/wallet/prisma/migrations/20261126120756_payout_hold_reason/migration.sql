-- AlterTable
ALTER TABLE "payout_requests" ADD COLUMN     "iban_changed_at" TIMESTAMP(3);
