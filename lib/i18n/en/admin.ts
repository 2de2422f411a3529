/**
 * The back office's frame: sign-in, the dashboard's figures, what needs attention, a received
 * notification, the navigation. In English; composed into ../en.ts.
 */

import type { adminTexts as pt } from "../pt/admin";

export const adminTexts: typeof pt = {
  title: "Shop management",
  offTitle: "Shop management is off",
  off: "Set ADMIN_PASSWORD (see the README) and restart the server.",
  signInTitle: "Sign in to shop management",
  email: "E-mail",
  emailHint: "The owner made from ADMIN_PASSWORD signs in with ADMIN_EMAIL.",
  password: "Password",
  twoFactorTitle: "Authenticator app code",
  twoFactorHint: "Enter the 6 digits the app shows now, or one of your backup codes.",
  twoFactorCode: "Code",
  verifyCode: "Confirm",
  signIn: "Sign in",
  signOut: "Sign out",
  signOutEverywhere: "Sign out everywhere",
  signedOutEverywhere: "Signed out everywhere: no session that was open is valid any more.",
  sessionEnded: "Your session has ended. Sign in again to go back to the page you were on.",
  errors: {
    wrong_password: "Wrong e-mail or password, or the account is disabled.",
    wrong_code: "Wrong or expired code. Sign in again if more than 10 minutes have passed.",
    rate_limited: "Too many attempts. Wait a minute and try again.",
    unavailable: "Signing in is not possible right now, because attempts cannot be counted. Try again in a moment.",
    invalid_request: "Enter the e-mail and the password.",
  },
  draft: {
    kept: "What you typed in the form will be put back; files will have to be chosen again.",
    restored: "You are signed in again: what you had typed in the form has been put back. Check it and send it again.",
    filesLost: "The files you had chosen could not be kept: choose them again.",
    textLost: "Some of the text was too long to keep: check the fields.",
  },
  paidToday: "Paid today",
  paidThisMonth: "Paid this month",
  pendingOrders: "Orders awaiting payment",
  periodNote: "Today and this month in Luanda time; each order counts on the day its payment was confirmed.",
  attention: {
    title: "Needs attention",
    nothing: "Nothing needs attention.",
    shown: (shown: number, total: number) => `${shown} of ${total} (the most recent)`,
    raisedOrders: "Orders to review",
    raisedOrdersHint: "Paid after they were cancelled: ship the order or refund it.",
    failedCreations: "Creation failed at the service",
    failedCreationsHint: "The service failed to create the payment; the order was cancelled here.",
    parkedJobs: "Parked jobs",
    parkedJobsHint: "Every attempt failed: retry from the order's page or mark it resolved.",
    unmatchedDeliveries: "Notifications without an order",
    unmatchedDeliveriesHint: "Correctly signed notifications that match no order or could not be read.",
    noOrder: "no order",
  },
  delivery: {
    title: "Notification from the service",
    received: "Received",
    outcome: "Outcome",
    paymentStatus: "Payment status",
    externalTransactionId: "Order named",
    order: "Order",
    back: "Back to the home",
  },
  nav: { label: "Management", home: "Home", orders: "Orders" },
};
