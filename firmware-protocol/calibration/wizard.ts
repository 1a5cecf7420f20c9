// The calibration wizard: a state machine fed with what the board reports (raw pictures and field
// changes), giving prompts, progress and at the end a board profile — or a clear message why not.
// Pure: no I/O, no clock; the caller passes readings in and shows what comes out.
import { type BoardSize, squareCount, startPosition } from '../board-string.ts';
import type { ProtocolName } from '../protocols.ts';
import type { PieceCodes } from '../types.ts';
import { calibrationPlan, type Prompt, type PromptAction, promptText, startMen } from './plan.ts';
import { type BoardProfile, type KingSensing, PROFILE_FORMAT, sizeOfFieldCount } from './profile.ts';
import type { RawReading } from './raw.ts';

export type WizardOutput =
  | { type: 'prompt'; prompt: Prompt }
  /** The wizard needs the whole board: ask the board for a dump. */
  | { type: 'need-picture' }
  /** A square found: `field` of the board is FMJD `square`. */
  | { type: 'learned'; field: number; square: number; n: number; of: number }
  | { type: 'done'; profile: BoardProfile }
  | { type: 'failed'; code: CalibrationFailure; message: string };

export type CalibrationFailure =
  | 'not-a-board'
  | 'several-squares'
  | 'wrong-square'
  | 'square-twice'
  | 'wrong-piece'
  | 'dump-order'
  | 'check-failed'
  | 'no-serial'
  /** The board could not be opened, closed, or never sent a picture. */
  | 'no-answer'
  /** The person calibrating (or the daemon stopping) ended the session. */
  | 'cancelled'
  /** Learned, but the profile could not be written. */
  | 'not-saved';

export interface WizardOptions {
  protocol: ProtocolName;
  /** The board's serial number, when already known (else `setSerial`). */
  serial?: string;
}

export type WizardState = 'waiting' | 'prompting' | 'done' | 'failed';

/** What the step in progress has seen since it began. */
interface StepWatch {
  /** The board when the step began. */
  base: number[];
  /** Fields that differed from `base` at some reading. */
  touched: Set<number>;
  /** Distinct non-zero codes seen on the touched fields, in the order seen. */
  codes: number[];
}

export class CalibrationWizard {
  private status: WizardState = 'waiting';
  private serial: string | undefined;
  private cells: number[] | undefined;
  private size: BoardSize = 10;
  private plan: PromptAction[] = calibrationPlan(10, 'pieces');
  private step = 0;
  private watch: StepWatch | undefined;
  /** field → square learned so far (0: not yet). */
  private map: number[] = [];
  private senses: 'pieces' | 'occupancy' = 'pieces';
  private codes: Partial<PieceCodes> = {};
  private occupied: number | undefined;
  private kings: KingSensing | undefined;
  private learnedCount = 0;

  constructor(private readonly options: WizardOptions) {
    this.serial = options.serial;
  }

  get state(): WizardState {
    return this.status;
  }

  /** The prompt being answered, if any. */
  get prompt(): Prompt | undefined {
    return this.status === 'prompting' ? this.promptAt(this.step) : undefined;
  }

  /** What to show first: the wizard waits for a picture of the board. */
  begin(): WizardOutput[] {
    return [{ type: 'need-picture' }];
  }

  setSerial(serial: string): void {
    this.serial = serial;
  }

  push(reading: RawReading): WizardOutput[] {
    if (this.status === 'done' || this.status === 'failed') return [];
    const before = this.cells;
    if (reading.kind === 'picture') {
      if (!this.cells) return this.firstPicture(reading.codes);
      if (reading.codes.length !== this.cells.length)
        return this.fail(
          'not-a-board',
          `the board changed its scan from ${this.cells.length} to ${reading.codes.length} fields`,
        );
      this.cells = [...reading.codes];
    } else {
      if (!this.cells) return [];
      if (reading.field < 0 || reading.field >= this.cells.length)
        return this.fail(
          'not-a-board',
          `field ${reading.field} is outside the board's ${this.cells.length} fields`,
        );
      this.cells[reading.field] = reading.code;
    }
    return this.advance(reading.kind === 'picture' ? before : undefined);
  }

  private promptAt(i: number): Prompt {
    const action = this.plan[i];
    return { ...action, n: i + 1, of: this.plan.length, text: promptText(action) };
  }

  private firstPicture(codes: readonly number[]): WizardOutput[] {
    const size = sizeOfFieldCount(codes.length);
    if (!size)
      return this.fail(
        'not-a-board',
        `a picture of ${codes.length} fields is no draughts board (50, 100, 32 or 64)`,
      );
    this.size = size;
    this.cells = [...codes];
    this.map = new Array(codes.length).fill(0);
    this.plan = calibrationPlan(size, 'pieces');
    this.status = 'prompting';
    return [{ type: 'prompt', prompt: this.promptAt(0) }, ...this.advance(undefined)];
  }

  private next(): WizardOutput[] {
    this.step++;
    this.watch = { base: [...this.cells!], touched: new Set(), codes: [] };
    const out: WizardOutput[] = [{ type: 'prompt', prompt: this.promptAt(this.step) }];
    if (this.plan[this.step].action === 'check') out.push({ type: 'need-picture' });
    return out;
  }

  /** Judges the board against the step in progress; `pictureAfter` is the board before a new picture. */
  private advance(pictureAfter: number[] | undefined): WizardOutput[] {
    const cells = this.cells!;
    const action = this.plan[this.step];
    switch (action.action) {
      case 'setup':
        return this.setupDone(cells) ? this.next() : [];
      case 'check':
        return pictureAfter ? this.check(pictureAfter, cells) : [];
      default:
        return this.touch(action, cells);
    }
  }

  /** 40 (24) pieces: two codes twenty (twelve) times each, or one code forty (twenty-four) times. */
  private setupDone(cells: number[]): boolean {
    const men = startMen(this.size);
    const counts = new Map<number, number>();
    for (const c of cells) if (c !== 0) counts.set(c, (counts.get(c) ?? 0) + 1);
    const values = [...counts.values()];
    const pieces = values.length === 2 && values.every((v) => v === men);
    const occupancy = values.length === 1 && values[0] === 2 * men;
    if (!pieces && !occupancy) return false;
    this.senses = pieces ? 'pieces' : 'occupancy';
    if (occupancy) this.occupied = [...counts.keys()][0];
    this.plan = calibrationPlan(this.size, this.senses);
    return true;
  }

  /** A lift-and-put-back, a put-and-take-away or a king: one field touched, then the board as before. */
  private touch(
    action: Exclude<PromptAction, { action: 'setup' | 'check' }>,
    cells: number[],
  ): WizardOutput[] {
    const w = this.watch!;
    let back = true;
    for (let f = 0; f < cells.length; f++) {
      if (cells[f] === w.base[f]) continue;
      back = false;
      w.touched.add(f);
      if (cells[f] !== 0 && !w.codes.includes(cells[f])) w.codes.push(cells[f]);
    }
    const square = action.square;
    if (w.touched.size > 1) {
      const fields = [...w.touched].map((f) => this.describe(f)).join(' and ');
      return this.fail(
        'several-squares',
        `prompt ${this.step + 1} asked for square ${square} alone, but ${fields} changed`,
      );
    }
    if (!back || w.touched.size === 0) return [];
    const [field] = w.touched;
    if (action.action === 'king') return this.king(action, field, w.codes);
    const wasEmpty = w.base[field] === 0;
    if (action.action === 'lift-return' && wasEmpty)
      return this.fail(
        'wrong-square',
        `square ${square} holds a piece, but an empty ${this.describe(field)} was used`,
      );
    if (action.action === 'put-remove' && !wasEmpty)
      return this.fail('wrong-square', `square ${square} is empty, but ${this.describe(field)} held a piece`);
    const code = wasEmpty ? w.codes[0] : w.base[field];
    const problem = this.pieceProblem(square, code, action.action === 'put-remove');
    if (problem) return this.fail('wrong-piece', problem);
    return this.learn(field, square);
  }

  /** On piece boards: does `code` fit the man that stands (or is put) on `square`? */
  private pieceProblem(square: number, code: number, put: boolean): string | undefined {
    if (this.senses !== 'pieces') return undefined;
    const black = square <= startMen(this.size);
    const colour = put || !black ? 'w' : 'b';
    if (this.codes[colour] === undefined) {
      this.codes[colour] = code;
      // The other man's code is the set-up's other code.
      const other = this.watch!.base.find((c) => c !== 0 && c !== code);
      if (other !== undefined) this.codes[colour === 'w' ? 'b' : 'w'] = other;
      return undefined;
    }
    if (this.codes[colour] === code) return undefined;
    const named = colour === 'w' ? 'a white man' : 'a black man';
    return put
      ? `prompt ${this.step + 1} asked for ${named} on ${square}, but the board read another piece`
      : `square ${square} holds ${named} in the start position, but the piece lifted reads as the other colour`;
  }

  private king(action: { square: number; piece: 'W' | 'B' }, field: number, seen: number[]): WizardOutput[] {
    const expected = this.map.indexOf(action.square);
    if (field !== expected)
      return this.fail(
        'wrong-square',
        `prompt ${this.step + 1} asked for a king on ${action.square}, but ${this.describe(field)} changed`,
      );
    const man = this.codes[action.piece === 'W' ? 'w' : 'b'];
    const others = seen.filter((c) => c !== man);
    if (
      others.length > 1 ||
      (others.length === 1 && others[0] === this.codes[action.piece === 'W' ? 'b' : 'w'])
    )
      return this.fail(
        'wrong-piece',
        `prompt ${this.step + 1} asked for ${action.piece === 'W' ? 'a white' : 'a black'} king on ${action.square}, but the board read other pieces`,
      );
    const crown = others[0];
    this.codes[action.piece] = crown ?? man;
    // Two men stacked read first as the man, then as the king; a crown reads as the king at once.
    const sensing: KingSensing = crown === undefined ? 'as-man' : seen[0] === man ? 'stacked' : 'crown';
    if (
      this.kings !== undefined &&
      this.kings !== sensing &&
      (this.kings === 'as-man' || sensing === 'as-man')
    )
      return this.fail('wrong-piece', 'one king read as a man and the other as a king of its own');
    if (this.kings === undefined || sensing === 'stacked') this.kings = sensing;
    return this.next();
  }

  private learn(field: number, square: number): WizardOutput[] {
    if (this.map[field] !== 0)
      return this.fail(
        'square-twice',
        `square ${square} was touched on the field already found for square ${this.map[field]}: the wrong piece was lifted at one of them`,
      );
    this.map[field] = square;
    this.learnedCount++;
    return [
      { type: 'learned', field, square, n: this.learnedCount, of: squareCount(this.size) },
      ...this.next(),
    ];
  }

  /** The picture asked for at the end must agree with the board as its changes built it, and read as the start position. */
  private check(tracked: number[], picture: number[]): WizardOutput[] {
    if (picture.some((c, f) => c !== tracked[f]))
      return this.fail(
        'dump-order',
        "the board's dump does not match its field updates: it numbers the fields differently in dumps",
      );
    const profile = this.profile();
    const read = this.readBoard(profile, picture);
    const start = startPosition(this.size);
    const want = this.senses === 'pieces' ? start : start.replace(/[wb]/g, 'o');
    if (read !== want)
      return this.fail(
        'check-failed',
        'the start position read back through what was learned is not the start position',
      );
    if (!this.serial) return this.fail('no-serial', 'the board never said its serial number');
    this.status = 'done';
    return [{ type: 'done', profile: { ...profile, serial: this.serial } }];
  }

  private profile(): BoardProfile {
    const fields = this.map.length as BoardProfile['fields'];
    const base = {
      format: PROFILE_FORMAT as typeof PROFILE_FORMAT,
      serial: this.serial ?? '',
      protocol: this.options.protocol,
      size: this.size,
      fields,
      fieldMap: [...this.map],
      lightFields: this.map.flatMap((sq, f) => (sq === 0 ? [f] : [])),
    };
    return this.senses === 'pieces'
      ? { ...base, senses: 'pieces', pieces: this.codes as PieceCodes, kings: this.kings ?? 'as-man' }
      : { ...base, senses: 'occupancy', occupied: this.occupied };
  }

  /** A picture as a board string through the learned map and codes. */
  private readBoard(profile: BoardProfile, picture: number[]): string {
    const cells = new Array<string>(squareCount(this.size)).fill('.');
    const p = profile.pieces;
    const charOf = (c: number) =>
      c === 0 ? '.' : !p ? 'o' : c === p.w ? 'w' : c === p.b ? 'b' : c === p.W ? 'W' : c === p.B ? 'B' : '?';
    let onLight = false;
    picture.forEach((c, f) => {
      const sq = profile.fieldMap[f];
      if (sq) cells[sq - 1] = charOf(c);
      else if (c !== 0) onLight = true;
    });
    return onLight ? 'a piece on a light square' : cells.join('');
  }

  private describe(field: number): string {
    return this.map[field] ? `field ${field} (square ${this.map[field]})` : `field ${field}`;
  }

  private fail(code: CalibrationFailure, message: string): WizardOutput[] {
    this.status = 'failed';
    return [{ type: 'failed', code, message }];
  }
}
