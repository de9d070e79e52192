// An AJAX form library: the form's own inputs sent to the form's own action, written out.
function enhance(form) {
  // ok: grabs_page_form_data
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const data = {};
    form.querySelectorAll('input').forEach((e) => { data[e.name] = e.value; });
    fetch(form.action, { method: 'POST', body: JSON.stringify(data) });
  });
}
