-- CreateIndex
CREATE INDEX "challenge_videos_uploader_id_status_idx" ON "challenge_videos"("uploader_id", "status");
