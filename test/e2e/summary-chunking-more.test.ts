import { describe, it } from 'vitest';
import { sameSummaryInEveryChunking } from './summary-chunking-scenario.js';

// test:slow: seeds 4-8 of the chunking scenario (seeds 1-3 run in npm test, summary-chunking.test.ts).
describe('the printed summary', () => {
  it('is the same for 5 more random chunkings of seq 1 200000, a 3 MB log and a 60,000-path listing', async () => {
    await sameSummaryInEveryChunking([4, 5, 6, 7, 8]);
  }, 600_000);
});
