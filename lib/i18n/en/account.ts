import type { accountTexts as pt } from "../pt/account";

/** The shopper's account, in English: see ../pt/account.ts. */

const units = (count: number) => `${count} ${count === 1 ? "unit" : "units"}`;

export const accountTexts: typeof pt = {
  account: {
    codeMessage: (code, shop, minutes) =>
      `${code} is your code to sign in to ${shop}. It is valid for ${minutes} minutes. Do not share it with anyone.`,
    signIn: {
      title: "Sign in",
      intro: "Sign in with your phone: we send you a code by WhatsApp or SMS. There is no password.",
      firstTime:
        "Your first sign-in creates your account: the shop keeps your phone and, only if you give them, your name, e-mail, NIF and delivery addresses.",
      phone: "Phone",
      phoneHint: "Write it as you like: 923 456 789 or +244 923 456 789.",
      sendCode: "Send the code",
      sending: "Sending…",
      codeSent: (phone) => `We sent a 6-digit code to ${phone}. It is valid for 5 minutes.`,
      anotherSent: (phone) => `We sent a new code to ${phone}. Use the one in the latest message.`,
      code: "Code",
      codeHint: "The 6 digits in the message.",
      verify: "Sign in",
      verifying: "Checking…",
      sendAnother: "Send another code",
      changeNumber: "Change number",
      signedIn: "Signed in. Opening the page…",
      noScript: "To sign in with your phone, this browser needs JavaScript turned on.",
      errors: {
        phone: "Enter a phone number, for example 923 456 789.",
        code: "The code has 6 digits: type only the digits in the message.",
        invalid_otp: "Wrong code. Check the message and try again: after 5 wrong tries the code stops working.",
        too_many_attempts: "The code was typed wrong too many times and no longer works. Ask for a new code.",
        otp_expired: "The code has expired: it is valid for 5 minutes. Ask for a new code.",
        otp_not_found: "This code no longer works. Ask for a new code.",
        rate_limited: "You have asked for many codes. Please wait a while before asking for another.",
        message_not_sent: "The code could not be sent to this phone. Please try again in a moment.",
        off: "Signing in with your phone is not available at the moment.",
        unavailable: "Signing in is not possible right now. Please try again in a moment.",
        offline: "No internet connection. Check the connection and try again.",
      },
    },
    page: {
      title: "My account",
      signedInAs: (phone) => `Signed in with the phone ${phone}.`,
    },
    orders: {
      title: "My orders",
      intro: "Every order placed with this phone, those from before you had an account too, newest first.",
      none: "No orders have been placed with this phone yet.",
      placedOn: (date) => `Placed on ${date}`,
      items: (count) => `${count} ${count === 1 ? "item" : "items"}`,
      view: "View the order",
      viewNamed: (order) => `View order ${order}`,
      receipt: "Receipt",
      receiptNamed: (order) => `Receipt of order ${order}`,
      buyAgain: "Buy again",
      buyAgainNamed: (order) => `Buy order ${order} again`,
      referenceTitle: "Pay by reference",
      more: "Show more orders",
      errors: {
        not_found: "We could not find that order among this phone's.",
        cart_locked: "A payment is in progress for your cart: it cannot change until the payment ends or is cancelled.",
        invalid_input: "Invalid request. Please try again from this page.",
        unavailable: "That was not possible right now. Please try again in a moment.",
      },
    },
    profile: {
      title: "My details",
      intro: "Optional: they fill in the checkout for you.",
      save: "Save my details",
      saved: "Details saved.",
      errors: {
        not_found: "The account no longer exists.",
        invalid_input: "Check your details and try again.",
        unavailable: "They could not be saved right now. Please try again in a moment.",
      },
    },
    addresses: {
      title: "Delivery addresses",
      none: "You have not saved an address yet.",
      isDefault: "Default",
      makeDefault: "Make default",
      makeDefaultNamed: (street) => `Make default: ${street}`,
      edit: "Edit",
      editNamed: (street) => `Edit: ${street}`,
      delete: "Delete",
      deleteNamed: (street) => `Delete: ${street}`,
      add: "Add an address",
      max: (count) => `You can keep up to ${count} addresses: delete one to add another.`,
      newTitle: "New address",
      editTitle: "Edit the address",
      useAsDefault: "Use as my default address (the one the checkout fills in)",
      save: "Save the address",
      back: "Back to my account",
      otherMunicipality: "Municipality not listed? The shop only delivers to these.",
      done: {
        saved: "Address saved.",
        made_default: "Default address changed.",
        deleted: "Address deleted.",
      },
      errors: {
        not_found: "That address no longer exists.",
        too_many_addresses: "You already keep the most addresses: delete one to add another.",
        address_conflict: "Your addresses changed elsewhere at the same moment. Please try again.",
        invalid_input: "Check the address and try again.",
        unavailable: "It could not be saved right now. Please try again in a moment.",
      },
    },
    session: {
      title: "Session",
      intro: "When you sign out, the order pages this browser kept to read offline are deleted.",
      signOut: "Sign out",
      signOutEverywhere: "Sign out on every device",
      working: "Signing out…",
      failed: "Signing out did not work. Check the connection and try again.",
    },
    deletion: {
      title: "Delete my account",
      intro:
        "Deletes the account, your details and saved addresses, and signs you out on every device. The orders placed with this phone stay: they are the shop's records.",
      button: "Delete my account",
      question: "Delete the account? This cannot be undone.",
      yes: "Yes, delete the account",
      no: "No, keep the account",
      working: "Deleting the account…",
      failed: "The account could not be deleted. Check the connection and try again.",
    },
    boughtAgain: {
      added: (count) =>
        count === 0
          ? "No item of the order went back into the cart."
          : `${units(count)} of the order went back into the cart, at today's price.`,
      missingTitle: "What could not be added:",
      reasons: {
        gone: (count) => `${units(count)}: no longer sold.`,
        out_of_stock: (count) => `${units(count)}: sold out.`,
        reduced: (count) => `${units(count)} fewer: not enough in stock.`,
        cart_full: (count) => `${units(count)}: no room in the cart (limit per order).`,
      },
      more: (count) => `And ${count} more ${count === 1 ? "item" : "items"}.`,
    },
  },
};
