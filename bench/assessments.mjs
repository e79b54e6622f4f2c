// Assessments at scale on the embedded database: one dealer with 10,000 assessments (and 2,000
// contacts, a third of the assessments naming one) beside four dealers with 10,000 each
// (ASSESSMENTS_BIG, ASSESSMENTS_OTHERS). Measures GET /api/assessments?limit=50 and
// GET /api/dashboard/stats at one connection and at 16. The built app (server.mjs) runs against an
// engine this script starts, so the documents can be seeded with the driver; loopback only, every
// loop bounded.
import os from "node:os";
import mongoose from "mongoose";
import { benchAssessment, benchDealers, call, measureList, printListTable, seedOwners, startStack } from "./lib.mjs";

const BIG = Number(process.env.ASSESSMENTS_BIG ?? 10_000);
const OTHERS = Number(process.env.ASSESSMENTS_OTHERS ?? 40_000);
const CONTACTS = 2_000;
const REQUESTS = Number(process.env.REQUESTS ?? 320);
const WARMUP = Number(process.env.WARMUP ?? 300);
const { ObjectId } = mongoose.mongo;

const stack = await startStack("assessments");
const { base, db } = stack;
const bench = { ...stack, requests: REQUESTS, warmup: WARMUP };

try {
  const { dealers, cookie } = await benchDealers(base);
  const seedStart = performance.now();
  const contactIds = Array.from({ length: CONTACTS }, () => new ObjectId());
  await db.collection("contacts").insertMany(
    contactIds.map((_id, i) => ({ _id, ownerId: dealers[0], firstName: `First${i}`, lastName: `Last${i}`, email: `c${i}@example.com`,
      createdAt: new Date(Date.UTC(2023, 0, 1) + i * 60_000), updatedAt: new Date() })),
  );
  const perOther = await seedOwners(db.collection("assessments"), dealers, { big: BIG, others: OTHERS }, (ownerId, i, d) =>
    benchAssessment(ownerId, i, { contactIds: d === 0 ? contactIds : undefined }),
  );
  console.log(`assessments: seeded ${BIG} + ${4 * perOther} assessments and ${CONTACTS} contacts with the driver in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  // The figures are the whole account's, computed by the database.
  const { text: statsText } = await call(base, "GET", "/api/dashboard/stats", { cookie });
  const stats = JSON.parse(statsText);
  if (stats.totalAssessments !== BIG) throw new Error(`stats count ${stats.totalAssessments} assessments, expected ${BIG}`);
  const { text: pageText } = await call(base, "GET", "/api/assessments?limit=50", { cookie });
  const page = JSON.parse(pageText);
  if (page.length !== 50 || !page.some((a) => a.contact)) throw new Error("the first page should hold 50 assessments, some with a contact");
  console.log(`assessments: stats ${JSON.stringify({ ...stats, recentAssessments: stats.recentAssessments.length })}`);

  const rows = [
    await measureList(bench, "/api/assessments?limit=50", ["/api/assessments?limit=50"], cookie),
    await measureList(bench, "/api/assessments?limit=50&status=completed", ["/api/assessments?limit=50&status=completed"], cookie),
    await measureList(bench, "/api/dashboard/stats", ["/api/dashboard/stats"], cookie),
  ];

  console.log(`assessments: ${BIG} assessments in one account beside ${4 * perOther} in four others (${os.cpus().length} CPUs)`);
  printListTable(rows, "req/s");
} catch (error) {
  console.error(`assessments: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await stack.stop();
}
