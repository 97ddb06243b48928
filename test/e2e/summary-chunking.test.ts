import { describe, it } from 'vitest';
import { sameSummaryInEveryChunking } from './summary-chunking-scenario.js';

// Three chunkings here; five more in summary-chunking-more.test.ts (test:slow). The same
// property on one 3 MB output, eight chunkings in-process: test/unit/summary-chunking.property.test.ts.
describe('the printed summary', () => {
  it('is the same for 3 random chunkings of seq 1 200000, a 3 MB log and a 60,000-path listing', async () => {
    await sameSummaryInEveryChunking([1, 2, 3]);
  }, 600_000);
});
