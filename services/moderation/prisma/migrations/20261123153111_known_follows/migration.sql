-- CreateTable
CREATE TABLE "known_follows" (
    "follower_id" UUID NOT NULL,
    "followee_id" UUID NOT NULL,

    CONSTRAINT "known_follows_pkey" PRIMARY KEY ("follower_id","followee_id")
);
