import { lazyComponent } from "~/components/lazy-component";
import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ContactCard } from "~/components/contacts/ContactCard";
import { CardGrid, CardGridSkeleton, useListLoading } from "~/components/crud/CardGrid";
import { EmptyState } from "~/components/crud/EmptyState";
import { ListDialogs } from "~/components/crud/ListDialogs";
import { BuildingIcon, PhoneIcon, PlusIcon, UsersIcon } from "~/components/crud/icons";
import { keepListWhenOpeningDialog, listSearch, readDialog } from "~/utils/list-url";
import { CursorLinks } from "~/components/crud/CursorLinks";
import { SearchBar } from "~/components/crud/SearchBar";
import { StatCard } from "~/components/crud/StatCard";
import { contactValidator } from "~/schemas/validators.server";
import { requireUser } from "~/services/auth.server";
import {
  contactsPage,
  createContact,
  deleteContact,
  getContact,
  updateContact,
} from "~/services/contacts.server";
import { listScreenAction, nullIfNotFound, readListPosition, readListUrl } from "~/screens/list-screen.server";
import { pageTitle, useT } from "~/utils/i18n";

// Dialog contents load when a dialog opens (lazyComponent): most visits open none.
const ContactForm = lazyComponent("contacts/ContactForm", () => import("~/components/contacts/ContactForm").then((m) => m.ContactForm));

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Contacts") }];

/** Cards per page (a multiple of the 1, 2 and 3 columns); the rest is paged. */
const PAGE_SIZE = 24;

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  const { q, dialog } = readListUrl(request.url);
  const [list, target] = await Promise.all([
    contactsPage(actor, { q, ...readListPosition(request.url, PAGE_SIZE), pageSize: PAGE_SIZE }),
    dialog && dialog.kind !== "new" ? getContact(actor, dialog.id).catch(nullIfNotFound) : null,
  ]);
  return json({ q: q ?? "", ...list, target });
}

export const shouldRevalidate = keepListWhenOpeningDialog;

/** Form posts: `intent` = create | update | delete; success and failure come back as toasts. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return listScreenAction(request, {
    noun: "Contact",
    validator: contactValidator,
    create: (input) => createContact(actor, input),
    update: (id, input) => updateContact(actor, id, input),
    remove: (id) => deleteContact(actor, id),
    describe: (contact, done) =>
      `${contact.firstName} ${contact.lastName} has been ${done === "created" ? "added to your contacts" : done}.`,
  });
}

export default function ContactsPage() {
  const t = useT();
  const { q, contacts, matched, older, newer, stats, target } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const loading = useListLoading();
  const dialog = readDialog(params);
  const closeTo = listSearch(params) || "/contacts";
  const hrefWith = (changes: Record<string, string | number | null>) => listSearch(params, changes) || "/contacts";
  // The item a dialog is about: from the loader on a direct visit, else from the page shown.
  const dialogContact =
    dialog && dialog.kind !== "new"
      ? (target?.id === dialog.id ? target : contacts.find((c) => c.id === dialog.id)) ?? null
      : null;
  const addButton = (
    <Button component={Link} to={hrefWith({ dialog: "new" })} preventScrollReset leftSection={<PlusIcon size={16} />}>
      {t("Add Contact")}
    </Button>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t("Contacts")}</Title>
          <Text c="dimmed">{t("Manage your customer contacts.")}</Text>
        </div>
        {addButton}
      </Group>

      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={{ base: "xs", sm: "md" }}>
        <StatCard label={t("Total Contacts")} value={stats.total} icon={<UsersIcon />} />
        <StatCard label={t("With Companies")} value={stats.withCompany} icon={<BuildingIcon />} color="teal" />
        <StatCard label={t("With Phone")} value={stats.withPhone} icon={<PhoneIcon />} color="grape" />
      </SimpleGrid>

      <SearchBar q={q} placeholder={t("Search contacts...")} label={t("Search contacts")} />

      {loading ? (
        <CardGridSkeleton count={6} />
      ) : contacts.length === 0 ? (
        <EmptyState
          icon={<UsersIcon size={28} />}
          title={t("No Contacts Found")}
          message={q ? t("No contacts match your search.") : t("Add your first contact to get started.")}
          action={q ? undefined : addButton}
        />
      ) : (
        <CardGrid label={t("Contacts")}>
          {contacts.map((contact) => (
            <ContactCard
              key={contact.id}
              contact={contact}
              editTo={hrefWith({ edit: contact.id })}
              deleteTo={hrefWith({ delete: contact.id })}
            />
          ))}
        </CardGrid>
      )}

      <CursorLinks
        shown={contacts.length}
        matched={matched}
        noun={t("contacts")}
        newer={newer}
        older={older}
        hrefFor={(cursor) => hrefWith({ cursor, page: null })}
      />

      <ListDialogs
        dialog={dialog}
        noun={t("Contact")}
        item={dialogContact}
        closeTo={closeTo}
        renderForm={(item) => <ContactForm contact={item} cancelTo={closeTo} />}
        deleteQuestion={(c) => `Are you sure you want to delete ${c.firstName} ${c.lastName}? This action cannot be undone.`}
      />
    </Stack>
  );
}
