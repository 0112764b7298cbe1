/**
 * How much table extraction may produce for a given input. Spans make
 * output grow without input (one cell with colspan=1000 rowspan=0 over
 * 40,000 rows is 40 million grid positions), so grid positions and cell
 * characters are capped in proportion to the HTML's length; past a cap the
 * table is cut and the answer says `truncated`.
 */

/** Grid positions per character of HTML, and the floor for small inputs. */
export const GRID_SLOTS_PER_INPUT_CHAR = 2;
export const MIN_GRID_SLOTS = 100_000;
/** Characters of cell text returned per character of HTML (spans repeat text), and the floor. */
export const OUTPUT_CHARS_PER_INPUT_CHAR = 4;
export const MIN_OUTPUT_CHARS = 256 * 1024;

export class TableOutputBudget {
  private slotsLeft: number;
  private charsLeft: number;
  /** Set once a cap cut something. */
  truncated = false;

  constructor(inputLength: number) {
    this.slotsLeft = Math.max(MIN_GRID_SLOTS, GRID_SLOTS_PER_INPUT_CHAR * inputLength);
    this.charsLeft = Math.max(MIN_OUTPUT_CHARS, OUTPUT_CHARS_PER_INPUT_CHAR * inputLength);
  }

  /** Takes `count` grid positions; false (and truncated) when they are not left. */
  takeSlots(count: number): boolean {
    if (count > this.slotsLeft) return this.refuse();
    this.slotsLeft -= count;
    return true;
  }

  /** Takes `count` output characters; false (and truncated) when they are not left. */
  takeChars(count: number): boolean {
    if (count > this.charsLeft) return this.refuse();
    this.charsLeft -= count;
    return true;
  }

  /** Grid positions still available. */
  get slotsRemaining(): number {
    return this.slotsLeft;
  }

  /** Records that something was cut. */
  markTruncated(): void {
    this.truncated = true;
  }

  /** A cap was reached: tables after the current one are not read. */
  get exhausted(): boolean {
    return this.truncated;
  }

  private refuse(): false {
    this.truncated = true;
    return false;
  }
}
