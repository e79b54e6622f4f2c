/** How a role is named on screens (the header's badge, the preview banner, the users table). */
export const roleLabel = (role: string) => (role === "dealer" ? "Dealer Admin" : role === "vendor" ? "Vendor" : "Admin");
