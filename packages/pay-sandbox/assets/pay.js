/*
 * The sandbox's browser SDK (contract 4.3, 2.8, 2.9, 2.10): `window.Pay(publishableKey)`.
 * Served at /sdks/v1/pay.js. Plain ES2017, no dependencies: it runs as is in any shop page.
 *
 * A click opens the hosted checkout popup on the sandbox's origin, asks the shop for its order
 * (createOrder), points the popup at it and turns the popup's postMessage into callbacks.
 * The callbacks are user experience only; the signed webhook decides the business outcome.
 */
(function () {
  "use strict";

  var METHOD_CODES = ["FPMCXEXPRSS", "FPSOLPGEXT", "FPSOLPG"];
  var POPUP_NAME = "pay_checkout";
  var POPUP_WIDTH = 440;
  var POPUP_HEIGHT = 680;
  var CLOSED_CHECK_MS = 250;
  /** The `type` of every message the hosted checkout posts to its opener. */
  var OUTCOME_MESSAGE = "pay:checkout-outcome";

  var sdkOrigin = scriptOrigin();
  /** The one checkout in progress on this page: popups share one name, so there is one at most. */
  var active = null;

  function scriptOrigin() {
    var script = document.currentScript;
    // Some loaders run the script without currentScript; the tag is still on the page.
    if (!script || !script.src) script = document.querySelector('script[src*="/sdks/v1/pay.js"]');
    if (!script || !script.src) throw new Error("Pay: load the SDK with a script tag from /sdks/v1/pay.js");
    return new URL(script.src, document.baseURI).origin;
  }

  // Validation ------------------------------------------------------------------------------

  function fail(message) {
    throw new TypeError("Pay: " + message);
  }

  function isObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
  }
  function isFiniteNumber(value) {
    return typeof value === "number" && isFinite(value);
  }

  function onlyKeys(value, allowed, where) {
    Object.keys(value).forEach(function (key) {
      if (allowed.indexOf(key) === -1) fail(where + " has an unknown field " + JSON.stringify(key));
    });
  }

  function optional(value, check, where, expected) {
    if (value !== undefined && !check(value)) fail(where + " must be " + expected);
  }

  function validateButtonConfig(config) {
    if (!isObject(config)) fail("generateButton needs a config object");
    var members = ["createOrder", "onApprove", "onPending", "onCancel", "onError", "onClick", "options"];
    onlyKeys(config, members, "the button config");
    ["createOrder", "onApprove", "onPending", "onCancel", "onError"].forEach(function (name) {
      if (typeof config[name] !== "function") fail("the button config needs a function " + name);
    });
    optional(config.onClick, isFunction, "onClick", "a function");

    var options = config.options === undefined ? {} : config.options;
    if (!isObject(options)) fail("options must be an object");
    onlyKeys(options, ["style", "config", "paymentConfig"], "options");

    var style = options.style === undefined ? {} : options.style;
    if (!isObject(style)) fail("options.style must be an object");
    onlyKeys(style, ["width", "shape"], "options.style");
    optional(style.width, isString, "options.style.width", 'a string such as "100%"');
    optional(
      style.shape,
      function (shape) {
        return shape === "rect" || shape === "pill";
      },
      "options.style.shape",
      '"rect" or "pill"',
    );

    var local = options.config === undefined ? {} : options.config;
    if (!isObject(local)) fail("options.config must be an object");
    onlyKeys(local, ["lang", "showAmount"], "options.config");
    optional(local.lang, isString, "options.config.lang", 'a language code such as "pt"');
    optional(local.showAmount, isBoolean, "options.config.showAmount", "a boolean");

    var paymentConfig = options.paymentConfig === undefined ? {} : options.paymentConfig;
    if (!isObject(paymentConfig)) fail("options.paymentConfig must be an object");
    optional(paymentConfig.theme, isString, "options.paymentConfig.theme", 'a string such as "light"');
    optional(
      paymentConfig.showUIOfProcessingInfo,
      isBoolean,
      "options.paymentConfig.showUIOfProcessingInfo",
      "a boolean",
    );
    optional(
      paymentConfig.referencePaymentLifeSpan,
      function (span) {
        return isFiniteNumber(span) && span > 0;
      },
      "options.paymentConfig.referencePaymentLifeSpan",
      "a positive number",
    );
    var methods = paymentConfig.allowedPaymentMethods;
    if (methods !== undefined) {
      if (!Array.isArray(methods)) fail("options.paymentConfig.allowedPaymentMethods must be an array");
      methods.forEach(function (code) {
        if (METHOD_CODES.indexOf(code) === -1) {
          fail("unknown payment method " + JSON.stringify(code) + "; use " + METHOD_CODES.join(", "));
        }
      });
    }
    return { style: style, lang: local.lang, paymentConfig: paymentConfig };
  }

  function isFunction(value) {
    return typeof value === "function";
  }
  function isString(value) {
    return typeof value === "string";
  }
  function isBoolean(value) {
    return typeof value === "boolean";
  }

  function validateCustomer(customer) {
    if (!isObject(customer)) fail("addCustomerInfo needs an object { name, phone }");
    onlyKeys(customer, ["name", "phone"], "the customer info");
    if (!isString(customer.name) || customer.name.trim() === "") fail("customer name must be a non-empty string");
    if (!isString(customer.phone) || customer.phone.trim() === "") fail("customer phone must be a non-empty string");
    return { name: customer.name, phone: customer.phone };
  }

  var REFERENCE_FIELDS = {
    referenceNumber: isString,
    referenceDescription: isString,
    referenceAmount: isFiniteNumber,
    referenceQuantity: isFiniteNumber,
    referenceTotalQuantity: isFiniteNumber,
  };

  function validateReferences(items) {
    if (!Array.isArray(items)) fail("addAllPaymentReferences needs an array");
    return items.map(function (item, index) {
      var where = "payment reference " + index;
      if (!isObject(item)) fail(where + " must be an object");
      onlyKeys(item, Object.keys(REFERENCE_FIELDS), where);
      var copy = {};
      Object.keys(REFERENCE_FIELDS).forEach(function (field) {
        var expected = REFERENCE_FIELDS[field] === isString ? "a string" : "a number";
        if (!REFERENCE_FIELDS[field](item[field])) fail(where + ": " + field + " must be " + expected);
        copy[field] = item[field];
      });
      return copy;
    });
  }

  // Callbacks -------------------------------------------------------------------------------

  /** Runs a shop callback; its failure is the shop's, reported, and never breaks the SDK. */
  function callback(name, fn, args) {
    var report = function (error) {
      console.error("Pay: the " + name + " callback failed", error);
    };
    try {
      var result = fn.apply(undefined, args);
      if (result && typeof result.then === "function") result.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }

  function actionsOf(checkout) {
    return {
      onPopupWindowClosed: function (fn) {
        if (typeof fn !== "function") fail("onPopupWindowClosed needs a function");
        if (checkout.popup.closed) callback("onPopupWindowClosed", fn, []);
        else checkout.closedCallbacks.push(fn);
      },
    };
  }

  // The checkout ----------------------------------------------------------------------------

  function popupFeatures() {
    var left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_WIDTH) / 2));
    var top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2));
    return "popup,width=" + POPUP_WIDTH + ",height=" + POPUP_HEIGHT + ",left=" + left + ",top=" + top;
  }

  function checkoutUrl(sdk, settings, referenceNumber) {
    var query = new URLSearchParams();
    query.set("key", sdk.publishableKey);
    if (settings.lang !== undefined) query.set("lang", settings.lang);
    query.set("paymentConfig", JSON.stringify(settings.paymentConfig));
    if (sdk.customer) query.set("customer", JSON.stringify(sdk.customer));
    if (sdk.references) query.set("references", JSON.stringify(sdk.references));
    query.set("origin", window.location.origin);
    return sdkOrigin + "/checkout/" + encodeURIComponent(referenceNumber) + "?" + query.toString();
  }

  /** Ends a checkout that never reached the hosted page: the popup goes, the shop hears why. */
  function abort(checkout, error) {
    if (checkout.settled) return;
    checkout.settled = true;
    checkout.popup.close();
    callback("onError", checkout.config.onError, [error]);
  }

  function watchPopup(checkout) {
    var timer = setInterval(function () {
      if (!checkout.popup.closed) return;
      clearInterval(timer);
      if (active === checkout) active = null;
      // Closed by the shopper before any outcome: a cancellation, as far as the page knows.
      if (!checkout.settled) {
        checkout.settled = true;
        callback("onCancel", checkout.config.onCancel, []);
      }
      var closedCallbacks = checkout.closedCallbacks.splice(0);
      closedCallbacks.forEach(function (fn) {
        callback("onPopupWindowClosed", fn, []);
      });
    }, CLOSED_CHECK_MS);
  }

  async function startCheckout(sdk, config, settings) {
    if (active && !active.popup.closed) {
      active.popup.focus();
      return;
    }
    // Opened at once, inside the click: a popup opened after an await is blocked by browsers.
    var loading = sdkOrigin + "/checkout/loading" + (settings.lang ? "?lang=" + encodeURIComponent(settings.lang) : "");
    var popup = window.open(loading, POPUP_NAME, popupFeatures());
    if (!popup) {
      callback("onError", config.onError, [
        new Error("Pay: the browser blocked the payment popup; allow popups for this site and try again"),
      ]);
      return;
    }
    var checkout = {
      popup: popup,
      config: config,
      referenceNumber: null,
      settled: false,
      closedCallbacks: [],
    };
    active = checkout;
    watchPopup(checkout);

    var referenceNumber;
    try {
      if (config.onClick) await config.onClick({ paymentConfig: settings.paymentConfig });
      referenceNumber = await config.createOrder();
    } catch (error) {
      abort(checkout, error);
      return;
    }
    if (typeof referenceNumber !== "string" || referenceNumber.trim() === "") {
      abort(
        checkout,
        new Error(
          "Pay: createOrder must resolve to the payment order's referenceNumber, a non-empty string; got " +
            (typeof referenceNumber === "string" ? "an empty string" : String(referenceNumber)),
        ),
      );
      return;
    }
    // The shopper may have closed the popup while the order was made: that was a cancel.
    if (checkout.settled || popup.closed) return;
    checkout.referenceNumber = referenceNumber;
    popup.location.href = checkoutUrl(sdk, settings, referenceNumber);
  }

  function isOutcome(data) {
    return (
      isObject(data) &&
      data.type === OUTCOME_MESSAGE &&
      isString(data.referenceNumber) &&
      ["approved", "pending", "cancelled", "error"].indexOf(data.outcome) !== -1
    );
  }

  window.addEventListener("message", function (event) {
    var checkout = active;
    // Only the hosted checkout, in the popup this page opened, speaks for a payment.
    if (event.origin !== sdkOrigin || !checkout || event.source !== checkout.popup) return;
    var message = event.data;
    if (!isOutcome(message) || message.referenceNumber !== checkout.referenceNumber || checkout.settled) return;
    checkout.settled = true;
    var config = checkout.config;
    var payment = isObject(message.payment) ? message.payment : {};
    if (message.outcome === "approved") {
      callback("onApprove", config.onApprove, [{ payment: payment }, actionsOf(checkout)]);
    } else if (message.outcome === "pending") {
      callback("onPending", config.onPending, [{ payment: payment }, actionsOf(checkout)]);
    } else if (message.outcome === "cancelled") {
      callback("onCancel", config.onCancel, []);
    } else {
      var reason = isObject(message.error) && isString(message.error.message) ? message.error.message : "unknown";
      callback("onError", config.onError, [new Error("Pay: the checkout failed: " + reason)]);
    }
  });

  // The button ------------------------------------------------------------------------------

  function renderButton(container, sdk, config, settings) {
    container.querySelectorAll("[data-pay-button]").forEach(function (previous) {
      previous.remove();
    });
    var button = document.createElement("button");
    button.type = "button";
    button.setAttribute("data-pay-button", "");
    button.textContent = /^en\b/i.test(settings.lang || "") ? "Pay" : "Pagar";
    // Style through the CSSOM, which a shop's Content-Security-Policy does not block.
    var css = button.style;
    css.width = settings.style.width || "auto";
    css.borderRadius = settings.style.shape === "pill" ? "999px" : "4px";
    css.padding = "0.75em 1.5em";
    css.border = "0";
    css.background = "#0b5cad";
    css.color = "#fff";
    css.font = "600 1rem system-ui, sans-serif";
    css.cursor = "pointer";
    button.addEventListener("click", function () {
      startCheckout(sdk, config, settings).catch(function (error) {
        console.error("Pay: the checkout failed", error);
      });
    });
    container.appendChild(button);
  }

  window.Pay = function Pay(publishableKey) {
    if (typeof publishableKey !== "string" || !/^pk_(test|live)_.+$/.test(publishableKey)) {
      fail("Pay(publishableKey) needs a publishable key starting with pk_test_ or pk_live_");
    }
    // The real SDK takes live keys; this stand-in never touches real money, so it says so at once.
    if (publishableKey.indexOf("pk_live_") === 0) fail("the sandbox refuses pk_live_ keys: use a pk_test_ key");
    var sdk = { publishableKey: publishableKey, customer: null, references: null };
    return {
      generateButton: function (config) {
        var settings = validateButtonConfig(config);
        return {
          render: function (selector) {
            if (!isString(selector)) fail("render needs the CSS selector of the button's container");
            var container = document.querySelector(selector);
            if (!container) {
              throw new Error(
                "Pay: no element matches " + JSON.stringify(selector) + "; it must be in the DOM before render",
              );
            }
            renderButton(container, sdk, config, settings);
          },
        };
      },
      addCustomerInfo: function (customer) {
        sdk.customer = validateCustomer(customer);
      },
      addAllPaymentReferences: function (items) {
        sdk.references = validateReferences(items);
      },
    };
  };
})();
