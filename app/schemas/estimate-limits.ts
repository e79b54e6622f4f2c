/** The longest reason an estimate edit may carry (zod-free, so the form can import it without zod). */
export const REASON_MAX = 1000;

/**
 * The most damages one estimate holds, everywhere: what the analysis stores, what Edit Estimate
 * (screen and API) and the quote take, what an import accepts, what the PDF and the customer's page
 * print (docs/decisions/0027). Hail leaves 40–60 dents on a car, and more on a roof and bonnet.
 */
export const MAX_DAMAGES = 100;

/**
 * Lines a damage may carry: its repair or replace (body labour), its refinish, a part, and one more
 * named operation (remove & install, blend, a flat-rate sublet).
 */
export const LINES_PER_DAMAGE = 4;

/** Lines of the whole vehicle beside the damages' (set-up, masking, hazardous waste, allowances). */
export const WHOLE_VEHICLE_LINES = 50;

/** The most lines one estimate holds: every damage with all its lines, plus the whole vehicle's. */
export const MAX_SHEET_LINES = MAX_DAMAGES * LINES_PER_DAMAGE + WHOLE_VEHICLE_LINES;
