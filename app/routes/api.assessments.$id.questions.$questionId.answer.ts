import { json, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { answerQuestion } from "~/services/estimate-questions.server";
import { idempotentPost } from "~/services/idempotency.server";
import { methods, readJson } from "~/utils/http.server";

/**
 * `POST /api/assessments/{id}/questions/{questionId}/answer` `{message}`: stores the answer and emails
 * it to the customer with the link to their estimate page (201 with the question and `emailLogId`).
 * With an `Idempotency-Key`, a retried request answers the first one again: the customer gets one email.
 */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return idempotentPost(actor, request, async () => {
      const body = await readJson(request, { maxBytes: 64 * 1024 });
      return json(await answerQuestion(actor, params.id ?? "", params.questionId ?? "", body), { status: 201 });
    });
  },
});
