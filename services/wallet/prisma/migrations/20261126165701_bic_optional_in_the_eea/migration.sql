-- AlterTable
ALTER TABLE "payment_profiles" ALTER COLUMN "bic" DROP NOT NULL;

-- AlterTable
ALTER TABLE "payout_requests" ALTER COLUMN "bic" DROP NOT NULL;
