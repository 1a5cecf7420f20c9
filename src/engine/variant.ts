// Board geometry per variant: FMJD square numbering, diagonal rays, promotion rows.
// Square 1 is the second square of the top row seen from White; White moves toward row 0.

export const VARIANTS = ['international', 'brazilian'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Diagonal directions: 0 = up-left, 1 = up-right (White's forward), 2 = down-left, 3 = down-right. */
export type Direction = 0 | 1 | 2 | 3;
export const DIRECTIONS: readonly Direction[] = [0, 1, 2, 3];

export interface Geometry {
  readonly variant: Variant;
  /** Squares on a side: 10 or 8. */
  readonly width: number;
  /** Playable squares: 50 or 32. */
  readonly squares: number;
  /** PDN GameType number: 20 international, 26 brazilian. */
  readonly gameType: number;
  /** rays[square][direction] = the squares met walking that way, nearest first. */
  readonly rays: ReadonlyArray<ReadonlyArray<readonly number[]>>;
  /** Row 0 (top, Black's back row) … width−1 (White's back row). */
  readonly rowOf: Int8Array;
  readonly colOf: Int8Array;
  /** Squares where a man of that colour is crowned: White on the top row, Black on the bottom row. */
  readonly whitePromotion: (square: number) => boolean;
  readonly blackPromotion: (square: number) => boolean;
  /** The squares of the initial position. */
  readonly initialWhite: readonly number[];
  readonly initialBlack: readonly number[];
}

const DR = [-1, -1, 1, 1];
const DC = [-1, 1, -1, 1];

function build(variant: Variant, width: number, gameType: number, initialRows: number): Geometry {
  const perRow = width / 2;
  const squares = width * perRow;
  const rowOf = new Int8Array(squares + 1);
  const colOf = new Int8Array(squares + 1);
  const at = new Map<number, number>();
  for (let s = 1; s <= squares; s++) {
    const r = Math.floor((s - 1) / perRow);
    const c = 2 * ((s - 1) % perRow) + (r % 2 === 0 ? 1 : 0);
    rowOf[s] = r;
    colOf[s] = c;
    at.set(r * width + c, s);
  }
  const rays: number[][][] = [[]];
  for (let s = 1; s <= squares; s++) {
    const perDir: number[][] = [];
    for (const d of DIRECTIONS) {
      const ray: number[] = [];
      let r = rowOf[s] + DR[d];
      let c = colOf[s] + DC[d];
      while (r >= 0 && r < width && c >= 0 && c < width) {
        ray.push(at.get(r * width + c)!);
        r += DR[d];
        c += DC[d];
      }
      perDir.push(ray);
    }
    rays.push(perDir);
  }
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  return {
    variant,
    width,
    squares,
    gameType,
    rays,
    rowOf,
    colOf,
    whitePromotion: (s) => s >= 1 && s <= perRow,
    blackPromotion: (s) => s > squares - perRow && s <= squares,
    initialWhite: range(squares - initialRows * perRow + 1, squares),
    initialBlack: range(1, initialRows * perRow),
  };
}

const GEOMETRIES: Record<Variant, Geometry> = {
  international: build('international', 10, 20, 4),
  brazilian: build('brazilian', 8, 26, 3),
};

export function geometry(variant: Variant): Geometry {
  return GEOMETRIES[variant];
}

export function isVariant(name: string): name is Variant {
  return (VARIANTS as readonly string[]).includes(name);
}
