-- AlterTable
ALTER TABLE "users" ADD COLUMN     "challengeable" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "minimum_challenge_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "minimum_challenge_value" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "public_profile" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "follows" (
    "follower_id" UUID NOT NULL,
    "followee_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "follows_pkey" PRIMARY KEY ("follower_id","followee_id")
);

-- CreateTable
CREATE TABLE "wallet_states" (
    "user_id" UUID NOT NULL,
    "balance_cents" BIGINT NOT NULL,
    "open_payout_cents" BIGINT NOT NULL,
    "version" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "wallet_states_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "follows_followee_id_created_at_idx" ON "follows"("followee_id", "created_at");

-- AddForeignKey
ALTER TABLE "follows" ADD CONSTRAINT "follows_follower_id_fkey" FOREIGN KEY ("follower_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follows" ADD CONSTRAINT "follows_followee_id_fkey" FOREIGN KEY ("followee_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
