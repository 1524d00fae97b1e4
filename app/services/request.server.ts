/** The submitted form, or an empty one when the body is missing or not a form: a request a
 *  user or a script can send must never end in a 500. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}
