import type { VideoStatus } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';

export type { VideoStatus };

export interface VideoRecord {
  id: string;
  challengeId: string;
  uploaderId: string;
  objectKey: string;
  thumbnailKey: string | null;
  aspectMode: string;
  status: VideoStatus;
  originalKey: string | null;
  createdAt: Date;
}

const videoFields = {
  id: true,
  challengeId: true,
  uploaderId: true,
  objectKey: true,
  thumbnailKey: true,
  aspectMode: true,
  status: true,
  originalKey: true,
  createdAt: true,
} as const;

/** A challenge's videos in one status, newest first. */
export function findVideosOfChallenge(
  db: Database | Transaction,
  challengeId: string,
  status: VideoStatus,
): Promise<VideoRecord[]> {
  return db.challengeVideo.findMany({
    where: { challengeId, status },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: videoFields,
  });
}

export interface NewVideoRow {
  challengeId: string;
  uploaderId: string;
  objectKey: string;
  thumbnailKey?: string | null;
  aspectMode?: string;
  status?: VideoStatus;
  id?: string;
  originalKey?: string | null;
  sizeBytes?: bigint | null;
  contentType?: string | null;
  ownVideoConfirmed?: boolean;
}

export function insertVideo(db: Database | Transaction, row: NewVideoRow): Promise<VideoRecord> {
  return db.challengeVideo.create({ data: row, select: videoFields });
}
