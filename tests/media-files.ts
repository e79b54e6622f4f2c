import sharp from "sharp";

// Small valid media files made in the tests (magic bytes are what the server checks).

export async function jpeg(options: { width?: number; height?: number; gps?: boolean } = {}) {
  let image = sharp({
    create: { width: options.width ?? 64, height: options.height ?? 48, channels: 3, background: { r: 200, g: 30, b: 30 } },
  });
  if (options.gps) {
    image = image.withExif({
      IFD0: { Make: "DamageIQ Test Camera", Artist: "Tester" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 0/1" },
    });
  }
  return image.jpeg().toBuffer();
}

/** A PNG with structure (bands of light and shade), unlike the flat pictures above: a perceptual hash tells such photos apart. */
export async function photo(width = 120, height = 90, seed = 1) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = Math.round(127 + 120 * Math.sin((x * seed) / 9 + y / 13) * Math.cos((y * seed) / 7));
      pixels.set([v, (v * 3) & 0xff, 255 - v], (y * width + x) * 3);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

export async function png(width = 32, height = 32) {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** An MP4 of `size` bytes: a real `ftyp` box (brand isom), then filler. */
export function mp4(size = 4096) {
  const buf = Buffer.alloc(size);
  const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from("ftypisom"), 0, 0, 2, 0, ...Buffer.from("isomiso2")]);
  ftyp.copy(buf, 0);
  for (let i = ftyp.length; i < size; i++) buf[i] = (i * 31) & 0xff;
  return buf;
}

/** A QuickTime movie header (brand `qt  `). */
export function mov(size = 2048) {
  const buf = mp4(size);
  Buffer.from("ftypqt  ").copy(buf, 4);
  return buf;
}

/**
 * A JPEG of its own (pixels from `seed`) carrying `mark` in a comment segment: its raw bytes hold a
 * text a leak check can find, and its thumbnail differs from every other seed's.
 */
export async function markedJpeg(mark: string, seed: number) {
  const image = await sharp(await photo(120, 90, seed)).jpeg().toBuffer();
  const text = Buffer.from(mark, "latin1");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length + 2);
  return Buffer.concat([image.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, text, image.subarray(2)]);
}

/**
 * A JPEG "scene" of soft coloured blobs (deterministic by seed): `shiftX`/`shiftY` move the camera by
 * that many pixels (another shot of the same scene, for the reused-photo check's "merely similar").
 */
export async function scene(seed: number, { width = 400, height = 300, shiftX = 0, shiftY = 0 } = {}) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const blobs = Array.from({ length: 40 }, () => ({
    x: random() * width * 1.2,
    y: random() * height * 1.2,
    radius: (10 + random() * 60) * (width / 400),
    colour: [random() * 255, random() * 255, random() * 255],
  }));
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let colour = [90, 100, 110];
      for (const b of blobs) {
        const d = Math.hypot(x + shiftX - b.x, y + shiftY - b.y);
        if (d < b.radius) {
          const t = 1 - d / b.radius;
          colour = colour.map((v, i) => v * (1 - t) + b.colour[i] * t);
        }
      }
      pixels.set(colour.map(Math.round), (y * width + x) * 3);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}
