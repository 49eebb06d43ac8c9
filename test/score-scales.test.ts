import { describe, expect, it } from 'vitest';
import { LIMITS, moderatorReward, onTen, TOTAL_MAX } from '../src/shared/rules.ts';

/** Issue 30, item 20: the page shows the staff's, audience's and teams' scores on one scale. */
describe('scores on one scale (out of 10)', () => {
  it('a total of all criteria is out of 70, and the page shows it out of 10 to one decimal, half up', () => {
    expect(TOTAL_MAX).toBe(70);
    expect(onTen(70, TOTAL_MAX)).toBe(10);
    expect(onTen(0, TOTAL_MAX)).toBe(0);
    expect(onTen(60, TOTAL_MAX)).toBe(8.6);
    expect(onTen(45, TOTAL_MAX)).toBe(6.4);
    expect(onTen(35, TOTAL_MAX)).toBe(5);
    expect(onTen(59.5, TOTAL_MAX)).toBe(8.5);
    expect(onTen(3.5, TOTAL_MAX)).toBe(0.5); // 0.05 rounds up, not down by float drift
  });
  it("the audience's average is already out of 10 and stays as it is", () => {
    expect(onTen(7.5, LIMITS.score)).toBe(7.5);
    expect(onTen(10, LIMITS.score)).toBe(10);
  });
  it('the reward formula still reads the total out of 70', () => {
    expect(moderatorReward(TOTAL_MAX)).toBe(130);
  });
});
