import { describe, expect, it } from "vitest";
import { customerWhatsappDigits, whatsappLink, whatsappShareLink } from "@/lib/whatsapp";

describe("whatsappLink", () => {
  it("opens a chat with the number and the text typed in, encoded", () => {
    expect(whatsappLink("244923456789", "Olá! Encomenda 7CDAC2DD & mais?")).toBe(
      "https://wa.me/244923456789?text=Ol%C3%A1!%20Encomenda%207CDAC2DD%20%26%20mais%3F",
    );
  });

  it("keeps an address in the text whole once decoded", () => {
    const url = new URL(whatsappLink("244923456789", "Ver https://loja.example/products/a-b?x=1#y"));
    expect(url.searchParams.get("text")).toBe("Ver https://loja.example/products/a-b?x=1#y");
  });
});

describe("whatsappShareLink", () => {
  it("types the text in a chat the person picks: wa.me without a number", () => {
    expect(whatsappShareLink("Referência: 123 & 4?")).toBe("https://wa.me/?text=Refer%C3%AAncia%3A%20123%20%26%204%3F");
  });
});

describe("customerWhatsappDigits", () => {
  it.each([
    ["+244 923 456 789", "244923456789"],
    ["923456789", "244923456789"],
    ["0923-456-789", "244923456789"],
    ["00244 923 456 789", "244923456789"],
    ["(+244) 923.456.789", "244923456789"],
    ["00351 912 345 678", "351912345678"],
    ["+351 912 345 678", "351912345678"],
  ])("%s → %s", (phone, digits) => {
    expect(customerWhatsappDigits(phone)).toBe(digits);
  });

  it.each(["", "garbage", "12345", "023456789", "+12", "+1234567890123456"])("%j has no link", (phone) => {
    expect(customerWhatsappDigits(phone)).toBeNull();
  });
});
