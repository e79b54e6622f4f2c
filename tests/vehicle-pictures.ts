import sharp, { type Sharp } from "sharp";

/**
 * Generated vehicle pictures for the reused-photo check (docs/decisions/0030): no package of the
 * registries ships real car photos, so these are drawn, deterministically, with SVG. Six body shapes
 * seen from four angles (24 models-and-angles), each in five colours on the same background (the
 * hard case: the same car in another colour), backgrounds and light varying between models; 320 × 240.
 * `copies` makes what a customer would send again: resized, re-encoded (JPEG, WebP) and cropped.
 */

export const SHAPES = ["sedan", "hatchback", "suv", "pickup", "van", "coupe"] as const;
export const ANGLES = ["left", "right", "three-quarter", "front"] as const;
export const COLOURS = {
  red: "#c0392b",
  blue: "#2456a6",
  silver: "#b9bdc4",
  black: "#23262b",
  yellow: "#e2b022",
  green: "#2f7d4a",
  white: "#f2f2ee",
} as const;
export type Shape = (typeof SHAPES)[number];
export type Angle = (typeof ANGLES)[number];
export type Colour = keyof typeof COLOURS;

export interface VehiclePicture {
  shape: Shape;
  angle: Angle;
  colour: Colour;
}

const W = 320;
const H = 240;

function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

// Side profiles (x from 0 to 1 along the car, y from 0 at the roof line to 1 at the sills).
const PROFILES: Record<Shape, { body: [number, number][]; cabin: [number, number][]; height: number; length: number }> = {
  sedan: { body: [[0, 0.45], [0.22, 0.38], [0.78, 0.38], [1, 0.5], [1, 0.85], [0, 0.85]], cabin: [[0.25, 0.38], [0.35, 0.08], [0.65, 0.08], [0.77, 0.38]], height: 70, length: 230 },
  hatchback: { body: [[0, 0.45], [0.2, 0.4], [0.85, 0.4], [0.95, 0.45], [0.95, 0.85], [0, 0.85]], cabin: [[0.24, 0.4], [0.36, 0.06], [0.88, 0.08], [0.93, 0.42]], height: 72, length: 190 },
  suv: { body: [[0, 0.4], [0.15, 0.35], [0.95, 0.35], [1, 0.4], [1, 0.88], [0, 0.88]], cabin: [[0.2, 0.35], [0.3, 0.02], [0.95, 0.02], [0.97, 0.35]], height: 95, length: 230 },
  pickup: { body: [[0, 0.45], [0.15, 0.38], [0.5, 0.38], [0.5, 0.4], [1, 0.4], [1, 0.85], [0, 0.85]], cabin: [[0.2, 0.38], [0.28, 0.02], [0.5, 0.02], [0.5, 0.38]], height: 90, length: 250 },
  van: { body: [[0, 0.3], [0.08, 0.15], [1, 0.15], [1, 0.88], [0, 0.88]], cabin: [[0.1, 0.18], [0.14, 0.02], [1, 0.02], [1, 0.2]], height: 105, length: 240 },
  coupe: { body: [[0, 0.55], [0.25, 0.48], [0.8, 0.48], [1, 0.58], [1, 0.85], [0, 0.85]], cabin: [[0.3, 0.48], [0.45, 0.18], [0.62, 0.18], [0.85, 0.5]], height: 60, length: 225 },
};

const points = (pts: [number, number][], x0: number, y0: number, len: number, height: number) =>
  pts.map(([x, y]) => `${(x0 + x * len).toFixed(1)},${(y0 + y * height).toFixed(1)}`).join(" ");

function background(seed: number) {
  const r = random(seed);
  const sky = `hsl(${Math.round(180 + r() * 60)},${Math.round(30 + r() * 50)}%,${Math.round(55 + r() * 30)}%)`;
  const ground = `hsl(${Math.round(20 + r() * 100)},${Math.round(10 + r() * 40)}%,${Math.round(25 + r() * 35)}%)`;
  const horizon = Math.round(120 + r() * 50);
  let shapes = "";
  for (let i = 0; i < 6; i++) {
    const x = Math.round(r() * W);
    const w = Math.round(20 + r() * 70);
    const h = Math.round(20 + r() * 80);
    const tone = `hsl(${Math.round(r() * 360)},${Math.round(r() * 40)}%,${Math.round(30 + r() * 50)}%)`;
    shapes += r() < 0.5 ? `<rect x="${x}" y="${horizon - h}" width="${w}" height="${h}" fill="${tone}"/>` : `<circle cx="${x}" cy="${horizon - h / 2}" r="${w / 2}" fill="${tone}"/>`;
  }
  const stripes = r() < 0.5 ? `<rect x="0" y="${horizon + 35}" width="${W}" height="6" fill="#ddd" opacity="0.6"/>` : "";
  return { svg: `<rect width="${W}" height="${horizon}" fill="${sky}"/>${shapes}<rect y="${horizon}" width="${W}" height="${H - horizon}" fill="${ground}"/>${stripes}`, horizon };
}

function sideView(shape: Shape, colour: string, horizon: number) {
  const p = PROFILES[shape];
  const x0 = (W - p.length) / 2;
  const y0 = horizon + 40 - p.height;
  const wheelR = p.height * 0.17;
  const wheelY = y0 + p.height * 0.85;
  const wheels = [0.2, 0.8].map((f) => `<circle cx="${x0 + f * p.length}" cy="${wheelY}" r="${wheelR}" fill="#111"/><circle cx="${x0 + f * p.length}" cy="${wheelY}" r="${wheelR * 0.5}" fill="#999"/>`).join("");
  const glass = p.cabin.map(([x, y], i) => [x + (i < 2 ? 0.03 : -0.03), y + (i === 0 || i === p.cabin.length - 1 ? -0.03 : 0.05)] as [number, number]);
  return (
    `<ellipse cx="${W / 2}" cy="${wheelY + wheelR}" rx="${p.length * 0.55}" ry="8" fill="#000" opacity="0.35"/>` +
    `<polygon points="${points(p.cabin, x0, y0, p.length, p.height)}" fill="${colour}"/>` +
    `<polygon points="${points(glass, x0, y0, p.length, p.height)}" fill="#33414f" opacity="0.85"/>` +
    `<polygon points="${points(p.body, x0, y0, p.length, p.height)}" fill="${colour}"/>` +
    `<rect x="${x0 + p.length * 0.45}" y="${y0 + p.height * 0.55}" width="${p.length * 0.06}" height="3" fill="#222" opacity="0.5"/>` +
    `<line x1="${x0 + p.length * 0.5}" y1="${y0 + p.height * 0.4}" x2="${x0 + p.length * 0.5}" y2="${y0 + p.height * 0.85}" stroke="#000" opacity="0.3"/>` +
    wheels
  );
}

function frontView(shape: Shape, colour: string, horizon: number) {
  const p = PROFILES[shape];
  const width = 110 + p.height * 0.5;
  const x0 = (W - width) / 2;
  const y0 = horizon + 40 - p.height;
  const roof = p.height * (shape === "van" || shape === "suv" ? 0.1 : 0.25);
  return (
    `<ellipse cx="${W / 2}" cy="${y0 + p.height}" rx="${width * 0.6}" ry="7" fill="#000" opacity="0.35"/>` +
    `<rect x="${x0 + 6}" y="${y0 + p.height * 0.82}" width="18" height="${p.height * 0.2}" fill="#111"/><rect x="${x0 + width - 24}" y="${y0 + p.height * 0.82}" width="18" height="${p.height * 0.2}" fill="#111"/>` +
    `<polygon points="${x0 + width * 0.15},${y0 + roof} ${x0 + width * 0.85},${y0 + roof} ${x0 + width * 0.95},${y0 + p.height * 0.45} ${x0 + width * 0.05},${y0 + p.height * 0.45}" fill="${colour}"/>` +
    `<polygon points="${x0 + width * 0.2},${y0 + roof + 5} ${x0 + width * 0.8},${y0 + roof + 5} ${x0 + width * 0.88},${y0 + p.height * 0.42} ${x0 + width * 0.12},${y0 + p.height * 0.42}" fill="#33414f" opacity="0.85"/>` +
    `<rect x="${x0}" y="${y0 + p.height * 0.45}" width="${width}" height="${p.height * 0.4}" rx="6" fill="${colour}"/>` +
    `<rect x="${x0 + width * 0.3}" y="${y0 + p.height * 0.58}" width="${width * 0.4}" height="${p.height * 0.14}" fill="#1b1b1b"/>` +
    `<circle cx="${x0 + width * 0.14}" cy="${y0 + p.height * 0.6}" r="${p.height * 0.07}" fill="#fff6c8"/><circle cx="${x0 + width * 0.86}" cy="${y0 + p.height * 0.6}" r="${p.height * 0.07}" fill="#fff6c8"/>`
  );
}

/** A picture of the vehicle as SVG: its background and light from the model and angle, the light shifted a little per colour. */
export function vehicleSvg({ shape, angle, colour }: VehiclePicture) {
  const model = SHAPES.indexOf(shape) * ANGLES.length + ANGLES.indexOf(angle);
  const { svg: scenery, horizon } = background(1000 + model * 7919);
  const paint = COLOURS[colour];
  let car = angle === "front" ? frontView(shape, paint, horizon) : sideView(shape, paint, horizon);
  // Seen from the front a car is narrower: closer, it fills the frame as a side view does.
  if (angle === "front") car = `<g transform="translate(${W / 2},${horizon + 40}) scale(1.4) translate(${-W / 2},${-horizon - 40})">${car}</g>`;
  if (angle === "right") car = `<g transform="translate(${W},0) scale(-1,1)">${car}</g>`;
  if (angle === "three-quarter") car = `<g transform="translate(${W * 0.1},${-10}) skewY(8) scale(0.85,1)">${car}</g>`;
  const light = random(model * 31 + Object.keys(COLOURS).indexOf(colour));
  const glow = light();
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">` +
    `<defs><linearGradient id="l" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="${(0.05 + glow * 0.12).toFixed(3)}"/><stop offset="1" stop-color="#000" stop-opacity="${(0.05 + light() * 0.15).toFixed(3)}"/></linearGradient></defs>` +
    `${scenery}${car}<rect width="${W}" height="${H}" fill="url(#l)"/></svg>`
  );
}

/** The picture as a camera would send it: a JPEG (quality 90). */
export async function vehiclePhoto(picture: VehiclePicture) {
  return sharp(Buffer.from(vehicleSvg(picture))).jpeg({ quality: 90 }).toBuffer();
}

/** The labelled set's distinct pictures: every model and angle in five colours, 120 in all. */
export function distinctPictures(): VehiclePicture[] {
  const names = Object.keys(COLOURS) as Colour[];
  return SHAPES.flatMap((shape, s) =>
    ANGLES.flatMap((angle, a) => Array.from({ length: 5 }, (_, i) => ({ shape, angle, colour: names[(s + a + i) % names.length] }))),
  );
}

/** What the check must see as the same picture: the copies of one photo a customer might send again. */
export async function copies(original: Buffer, seed: number) {
  const r = random(seed);
  const crop = async (share: number, format: (s: Sharp) => Sharp) => {
    const width = Math.round(W * (1 - share * (0.5 + r() / 2)));
    const height = Math.round(H * (1 - share * (0.5 + r() / 2)));
    const region = { left: Math.floor(r() * (W - width)), top: Math.floor(r() * (H - height)), width, height };
    return format(sharp(original).extract(region)).toBuffer();
  };
  return {
    resized: await sharp(original).resize(200).jpeg({ quality: 80 }).toBuffer(),
    jpeg40: await sharp(original).jpeg({ quality: 40 }).toBuffer(),
    webp: await sharp(original).webp({ quality: 50 }).toBuffer(),
    crop10: await crop(0.1, (s) => s.jpeg({ quality: 75 })),
    crop15: await crop(0.15, (s) => s.resize(256).jpeg({ quality: 70 })),
    cropBrighter: await crop(0.12, (s) => s.modulate({ brightness: 1.06 }).webp({ quality: 60 })),
  };
}
