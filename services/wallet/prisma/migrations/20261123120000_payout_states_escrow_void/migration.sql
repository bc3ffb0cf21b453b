-- AlterEnum: open -> exported -> done, open/exported -> cancelled (ADR 0016).
ALTER TYPE "PayoutStatus" ADD VALUE 'exported' AFTER 'open';
ALTER TYPE "PayoutStatus" ADD VALUE 'cancelled' AFTER 'done';

-- AlterTable
ALTER TABLE "challenge_states" ADD COLUMN     "challenged_user_id" UUID;

-- AlterTable
ALTER TABLE "escrow_holds" ADD COLUMN     "voided_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "payout_requests" ADD COLUMN     "cancel_reason" TEXT,
ADD COLUMN     "cancelled_at" TIMESTAMP(3),
ADD COLUMN     "cancelled_by" UUID;
