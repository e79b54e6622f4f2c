import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";

// The one-time set-up of a fresh database's first admin: a file of its own, so it starts with no admin
// whatever order the other account tests run in.
let app: RunningApp;
beforeAll(async () => {
  await useTestDb();
  app = await startApp();
});
afterAll(() => app?.stop());

const anon = () => client(app);
const ADMIN = { username: "chief", password: "password123", email: "chief@example.com", firstName: "Ada", lastName: "Admin" };

describe("admin set-up", { shuffle: false }, () => {
  it("reports no admin, validates the form, then creates exactly one admin under concurrency", async () => {
    expect((await anon().get("/api/admin/check-setup")).json).toEqual({ adminExists: false });

    const bad = await anon().post("/api/admin/create-account", { username: "ab", password: "short", email: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toMatchObject({
      username: "Username must be at least 3 characters",
      password: "Password must be at least 8 characters",
      email: "Please enter a valid email",
      firstName: "First name is required",
      lastName: "Last name is required",
    });

    const [a, b] = await Promise.all([
      anon().post("/api/admin/create-account", ADMIN),
      anon().post("/api/admin/create-account", { ...ADMIN, username: "chief2" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const created = a.status === 201 ? a : b;
    expect(created.json.user.role).toBe("admin");
    expect(created.json.user.passwordHash).toBeUndefined();
    expect((a.status === 409 ? a : b).json.message).toBe("Admin account already exists");
    expect(await mongoose.connection.collection("users").countDocuments({ role: "admin" })).toBe(1);
    expect((await anon().get("/api/admin/check-setup")).json).toEqual({ adminExists: true });
    ADMIN.username = created.json.user.username;
  });

  it("answers 409 once an admin exists", async () => {
    const res = await anon().post("/api/admin/create-account", { ...ADMIN, username: "another" });
    expect(res.status).toBe(409);
  });
});

