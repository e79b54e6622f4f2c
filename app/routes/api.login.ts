import { redirect } from "@remix-run/node";

// The client sends logged-out users here; the login screen lives at /login.
export const loader = () => redirect("/login");
