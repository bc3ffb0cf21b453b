-- AlterTable
ALTER TABLE "payment_profiles" ADD COLUMN     "iban_changed_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "payout_requests" ADD COLUMN     "held_for_review" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "released_at" TIMESTAMP(3),
ADD COLUMN     "released_by" UUID;
