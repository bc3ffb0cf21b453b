import { describe, expect, it } from 'vitest';
import { MAX_VIDEO_BYTES, videoFileProblem } from './videoUpload';

describe('videoFileProblem', () => {
  it('accepts mp4, mov and webm up to 500 MB, by type or, without one, by name', () => {
    expect(videoFileProblem({ name: 'a.mp4', type: 'video/mp4', size: 1 })).toBeNull();
    expect(videoFileProblem({ name: 'a.MOV', type: 'video/quicktime', size: 1 })).toBeNull();
    expect(videoFileProblem({ name: 'a.webm', type: '', size: 500_000_000 })).toBeNull();
  });

  it('refuses other types and anything over 500 MB (the server counts 500,000,000 bytes)', () => {
    expect(videoFileProblem({ name: 'a.png', type: 'image/png', size: 1 })).toBe('type');
    expect(videoFileProblem({ name: 'a.mp4', type: 'image/png', size: 1 })).toBe('type');
    expect(videoFileProblem({ name: 'a.avi', type: '', size: 1 })).toBe('type');
    expect(videoFileProblem({ name: 'a.mp4', type: 'video/mp4', size: 500_000_001 })).toBe('size');
    expect(MAX_VIDEO_BYTES).toBe(500_000_000);
  });
});
