/*
 * The sandbox dashboard's script (served at /__sandbox/dashboard.js): lists orders and webhook
 * deliveries from the control API and drives orders through it. Built with the DOM API and
 * textContent only, so no value from an order can become markup. The page is opened as
 * /__sandbox/dashboard?token=…; every call sends that token in the x-sandbox-token header
 * (never a cookie, which another site's requests would carry too).
 */
(function () {
  "use strict";

  var REFRESH_MS = 3000;
  var DELIVERIES_SHOWN = 50;
  var ORDER_ACTIONS = ["approve", "pending", "confirm", "cancel", "expire", "redeliver"];

  var token = new URLSearchParams(window.location.search).get("token") || "";
  var status = document.querySelector("[data-status]");
  var ordersBody = document.querySelector("[data-orders]");
  var deliveriesBody = document.querySelector("[data-deliveries]");

  async function control(method, path, body) {
    var response = await fetch("/__sandbox" + path, {
      method: method,
      headers:
        body === undefined
          ? { "x-sandbox-token": token }
          : { "x-sandbox-token": token, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    var answer = await response.json();
    if (!response.ok) throw new Error(answer.message || "HTTP " + response.status);
    return answer;
  }

  function cell(row, text) {
    var td = document.createElement("td");
    td.textContent = text === undefined || text === null ? "" : String(text);
    row.appendChild(td);
    return td;
  }

  function orderRow(order) {
    var row = document.createElement("tr");
    row.dataset.order = order.externalTransactionId;
    cell(row, order.externalTransactionId);
    cell(row, order.referenceNumber);
    cell(row, order.status + (order.cancelReason ? " (" + order.cancelReason + ")" : "")).dataset.statusCell = "";
    cell(row, order.amount + " AOA");
    cell(row, order.paymentMethod);
    cell(row, order.paymentReference ? order.paymentReference + " / " + order.entityNumber : "");
    cell(row, order.referenceExpiresAt);
    var actions = cell(row, "");
    ORDER_ACTIONS.forEach(function (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = action;
      button.dataset.action = action;
      button.disabled = action !== "redeliver" && order.status !== "PEN";
      button.addEventListener("click", function () {
        run(action + " " + order.externalTransactionId, function () {
          return control("POST", "/orders/" + encodeURIComponent(order.externalTransactionId) + "/" + action, {});
        });
      });
      actions.appendChild(button);
    });
    return row;
  }

  function deliveryRow(delivery) {
    var row = document.createElement("tr");
    var last = delivery.attempts[delivery.attempts.length - 1];
    cell(row, delivery.id);
    cell(row, delivery.externalTransactionId);
    cell(row, delivery.paymentStatus);
    cell(row, delivery.kind);
    cell(row, delivery.state + (delivery.reason ? ": " + delivery.reason : ""));
    cell(row, delivery.attempts.length);
    cell(row, last ? (last.status ? "HTTP " + last.status : last.error) : "");
    return row;
  }

  async function refresh() {
    var orders = (await control("GET", "/orders")).orders;
    var deliveries = (await control("GET", "/deliveries")).deliveries;
    ordersBody.replaceChildren.apply(ordersBody, orders.slice().reverse().map(orderRow));
    deliveriesBody.replaceChildren.apply(
      deliveriesBody,
      deliveries.slice(-DELIVERIES_SHOWN).reverse().map(deliveryRow),
    );
  }

  async function run(what, action) {
    try {
      await action();
      status.textContent = what ? what + ": done" : "";
      await refresh();
    } catch (error) {
      status.textContent = (what ? what + ": " : "") + (error instanceof Error ? error.message : String(error));
    }
  }

  document.querySelector("[data-refresh]").addEventListener("click", function () {
    run("", refresh);
  });
  run("", refresh);
  setInterval(function () {
    run("", refresh);
  }, REFRESH_MS);
})();
