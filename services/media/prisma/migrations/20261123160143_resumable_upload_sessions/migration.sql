-- CreateTable
CREATE TABLE "video_upload_sessions" (
    "id" UUID NOT NULL,
    "uploader_id" UUID NOT NULL,
    "challenge_id" UUID NOT NULL,
    "length" BIGINT NOT NULL,
    "offset" BIGINT NOT NULL DEFAULT 0,
    "object_key" TEXT,
    "content_type" TEXT,
    "s3_upload_id" TEXT,
    "parts" JSONB NOT NULL DEFAULT '[]',
    "video_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "video_upload_sessions_pkey" PRIMARY KEY ("id")
);
