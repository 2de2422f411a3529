/*
 * The hosted checkout popup's script (served at /checkout/assets/checkout.js). Each button
 * asks the sandbox to pay or cancel the order, then the outcome goes to the shop page that
 * opened the popup, to its origin only, and is shown to the shopper.
 */
(function () {
  "use strict";

  /** Long enough to read "processing" (showUIOfProcessingInfo), short enough not to annoy. */
  var PROCESSING_MIN_MS = 600;
  var CLOSE_AFTER_MS = 1500;

  var data = JSON.parse(document.getElementById("checkout-data").textContent);
  var base = "/checkout/" + encodeURIComponent(data.referenceNumber);
  var buttons = document.querySelectorAll("button[data-method], button[data-cancel]");

  function show(sectionId) {
    ["choose", "processing", "result"].forEach(function (id) {
      document.getElementById(id).hidden = id !== sectionId;
    });
  }

  function wait(ms) {
    return new Promise(function (resolve) {
      setTimeout(resolve, Math.max(0, ms));
    });
  }

  function errorMessage(reason) {
    return {
      type: data.messageType,
      referenceNumber: data.referenceNumber,
      outcome: "error",
      error: { message: reason },
    };
  }

  function describe(message) {
    var text = data.text;
    if (message.outcome === "approved") return text.approved;
    if (message.outcome === "cancelled") return text.cancelled;
    if (message.outcome === "pending") {
      var details = message.payment.data;
      return text.pending.replace("{reference}", details.paymentReference).replace("{entity}", details.entity.number);
    }
    return text.failed.replace("{reason}", message.error.message);
  }

  function tellOpener(message) {
    // Opened by hand (no opener, no origin given): there is no shop to tell.
    if (data.openerOrigin && window.opener && !window.opener.closed) {
      window.opener.postMessage(message, data.openerOrigin);
    }
  }

  async function submit(action, body) {
    buttons.forEach(function (button) {
      button.disabled = true;
    });
    if (data.showProcessing) show("processing");
    var started = Date.now();
    var message;
    try {
      var response = await fetch(base + "/" + action, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      var answer = await response.json();
      message = response.ok ? answer.message : errorMessage(answer.message || "HTTP " + response.status);
    } catch (error) {
      message = errorMessage(error instanceof Error ? error.message : String(error));
    }
    if (data.showProcessing) await wait(started + PROCESSING_MIN_MS - Date.now());
    tellOpener(message);
    document.querySelector("[data-result]").textContent = describe(message);
    document.getElementById("result").dataset.outcome = message.outcome;
    show("result");
    // An error stays on screen until the shopper has read it and closes the popup.
    if (message.outcome !== "error") setTimeout(window.close.bind(window), CLOSE_AFTER_MS);
  }

  document.querySelectorAll("button[data-method]").forEach(function (button) {
    button.addEventListener("click", function () {
      var body = { method: button.dataset.method };
      if (data.referencePaymentLifeSpan !== null) body.referencePaymentLifeSpan = data.referencePaymentLifeSpan;
      submit("pay", body);
    });
  });
  document.querySelector("button[data-cancel]").addEventListener("click", function () {
    submit("cancel", {});
  });
  document.querySelector("button[data-close]").addEventListener("click", function () {
    window.close();
  });
})();
